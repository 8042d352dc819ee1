// A TorchScript model file loaded for a case, errors naming the file's problem and the case.
#pragma once

#include "graphbench/core/suite/suite_spec.h"

#include <torch/script.h>

#include <string>
#include <vector>

namespace graphbench::bench {

// The torch.nn dropout modules in `module` (by class name), itself included.
std::vector<torch::jit::Module> dropout_modules(const torch::jit::Module& module);

// The bytes of the module's parameters and buffers (each storage once): a step's least reads.
double module_bytes(const torch::jit::Module& module);

// forward's arguments after `self`, with how many of them the caller must give.
struct ForwardArguments {
  std::size_t required = 0;
  std::size_t total = 0;
  std::string signature;  // "forward(x: Tensor, mask: Tensor)"
};
ForwardArguments forward_arguments(const torch::jit::Method& forward);

// Loads the case's `path` onto `device`; InputError "<suite>: <case>/path: <file>: ..." for a file
// missing, unreadable, not TorchScript, without forward, or of another arity than `inputs`.
torch::jit::Module load_script_model(const CaseSpec& spec, at::Device device);

}  // namespace graphbench::bench
