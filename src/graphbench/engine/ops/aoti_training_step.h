// A whole training step compiled into one AOTInductor package (export_model.py --mode train --format
// pt2) as one op: (inputs..., state...) -> loss, a plain function (no autograd here). Its state is the
// program's params and state, fixed store buffers every call updates, so a graph captures a whole
// step and each replay trains. A package returning the new state after the loss (where AOTInductor
// would not write into inputs) has it copied into the same buffers.
#pragma once

#include "graphbench/engine/plan/builder.h"

#include <ATen/ATen.h>

#include <functional>
#include <string>
#include <vector>

namespace graphbench::ops {

struct AotiTrainingCall {
  // One call of the package on the current stream (AotiPackage::run; tests give a function).
  std::function<std::vector<at::Tensor>(const std::vector<at::Tensor>&)> run;
  // What infer() runs the package on once (the state copied, so nothing changes).
  std::vector<at::Tensor> example_inputs;
  std::vector<at::Tensor> example_state;
  bool state_returned = false;  // the package returns the new state after the loss
  std::string label;            // the package's file, in messages
};

// Returns the loss; `state` (in the package's order) is updated in place by every run.
ValueId aoti_training_step(Builder& b, AotiTrainingCall call, const std::vector<ValueId>& inputs,
                           const std::vector<ValueId>& state);

}  // namespace graphbench::ops
