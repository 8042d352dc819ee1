// A TorchScript model file (torch.jit.save / torch::jit::Module::save) loaded for a case, with
// errors that say what is wrong with the file and which case named it.
#pragma once

#include "graphbench/core/suite/suite_spec.h"

#include <torch/script.h>

#include <string>
#include <vector>

namespace graphbench::bench {

// The submodules of `module` that are torch.nn dropout modules (Dropout, Dropout1d/2d/3d, AlphaDropout,
// FeatureAlphaDropout: the class name says so), the module itself included.
std::vector<torch::jit::Module> dropout_modules(const torch::jit::Module& module);

// The bytes of the module's parameters and buffers (each storage once): what a step of it must read
// at least. A decoding step's buffers are its KV cache.
double module_bytes(const torch::jit::Module& module);

// forward's arguments after `self`, with how many of them the caller must give.
struct ForwardArguments {
  std::size_t required = 0;
  std::size_t total = 0;
  std::string signature;  // "forward(x: Tensor, mask: Tensor)"
};
ForwardArguments forward_arguments(const torch::jit::Method& forward);

// Loads the case's `path` onto `device`. Throws InputError "<suite>: <case>/path: <file>: ..."
// for a missing or unreadable file, one that is not TorchScript, one without a forward method,
// and when forward takes another number of inputs than the case's `inputs` gives.
torch::jit::Module load_script_model(const CaseSpec& spec, at::Device device);

}  // namespace graphbench::bench
