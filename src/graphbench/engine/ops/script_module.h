// A whole TorchScript module (a user's model, torch::jit::load) as one op of a program.
//   inference  inputs -> forward -> outputs; the weights stay inside the module
//   training   inputs and the module's trainable parameters (externals of role param) ->
//              outputs: before each call the module's parameter attributes are pointed at the
//              op's param inputs, so autograd differentiates the program's own params and the
//              optimizer ops update the very tensors the module computes with. Buffers (batch
//              norm's running statistics) stay inside the module and are updated there.
// The outputs are forward's result flattened to tensors (a tensor, or tuples, lists and dicts of
// them, in order). A black box's output specs are known only by calling it: infer() calls the
// module once on the example inputs it was given, and the op runs only at their specs.
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

// The tensors of a forward result, in order; throws EngineError for anything but tensors, None and
// tuples, lists and dicts of them.
std::vector<at::Tensor> flatten_tensors(const c10::IValue& value);

}  // namespace graphbench::ops
