// Error messages as a record holds them: one paragraph, no backtrace; TorchScript's as its message and line.
#pragma once

#include <exception>
#include <string>

namespace graphbench {

// "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x5 and 4x3) (TorchScript: `_0 =
// torch.linear(x, self.weight, self.bias)`)"; otherwise the message without backtrace, lines joined.
std::string error_text(const std::exception& error);
std::string error_text(const std::string& message);

}  // namespace graphbench
