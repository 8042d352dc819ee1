// A whole TorchScript module as one op (its output specs from one call on the examples). Training:
// before each call its parameters point at the op's param inputs, so autograd differentiates the
// program's params and the optimizer updates the very tensors it computes with.
#pragma once

#include "graphbench/engine/plan/builder.h"

#include <torch/script.h>

#include <string>
#include <vector>

namespace graphbench::ops {

struct ScriptModuleCall {
  torch::jit::Module module;               // copies of a Module share the same object
  std::vector<std::string> param_names;    // trainable parameters by qualified name; empty for inference
  std::vector<at::Tensor> example_inputs;  // what infer() calls the module on (one per input)
  std::string label;                       // the file, for messages and the plan key
};

// Outputs of `call.module.forward(inputs...)`; `params` are the values of call.param_names, in order.
std::vector<ValueId> script_module_call(Builder& b, ScriptModuleCall call, const std::vector<ValueId>& inputs,
                                        const std::vector<ValueId>& params);

// The tensors of a forward result, in order (EngineError for anything but tensors and their containers).
std::vector<at::Tensor> flatten_tensors(const c10::IValue& value);

}  // namespace graphbench::ops
