// A whole training step's AOTInductor package as one op: (inputs..., state...) -> loss, no autograd,
// the state fixed store buffers every call updates (a returned state copied into them), so a graph
// captures a whole step and each replay trains.
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
