// Error messages as a record holds them: one paragraph, no C++ backtrace; a TorchScript error as its
// own message and the TorchScript line that raised it, not the whole traceback.
#pragma once

#include <exception>
#include <string>

namespace graphbench {

// "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x5 and 4x3) (TorchScript:
// `_0 = torch.linear(x, self.weight, self.bias)`)" for a TorchScript error; otherwise the message
// without its C++ backtrace, lines joined.
std::string error_text(const std::exception& error);
std::string error_text(const std::string& message);

}  // namespace graphbench
