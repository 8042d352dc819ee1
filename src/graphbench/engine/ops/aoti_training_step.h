// A whole training step compiled into one AOTInductor package (scripts/export_model.py --mode train
// --format pt2) as one op of a program:
//
//   (inputs..., state...) -> (loss, state...)      the state updated in place
//
// The package is a plain function of tensors: forward, loss, backward and the optimizer's update
// were traced into it, so no autograd runs here. Its state (params, buffers, optimizer state) is
// the program's params and state: fixed buffers of the model store that every call updates, so a
// CUDA graph captures one whole step and each replay trains. A package that writes the new state
// into its state inputs returns the loss alone; one that returns the new state after the loss
// (where AOTInductor would not compile writes into inputs) has it copied into the same buffers.
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
  // What infer() runs the package on once, to learn the loss's spec: the fed inputs (the model's
  // inputs and the loss's target) and the initial state (copied, so that the call changes nothing).
  std::vector<at::Tensor> example_inputs;
  std::vector<at::Tensor> example_state;
  bool state_returned = false;  // the package returns the new state after the loss
  std::string label;            // the package's file, in messages
};

// Returns the loss; `state` (params and state externals, in the package's order) are updated in
// place by every run.
ValueId aoti_training_step(Builder& b, AotiTrainingCall call, const std::vector<ValueId>& inputs,
                           const std::vector<ValueId>& state);

}  // namespace graphbench::ops
