// A training step's AOTInductor package (scripts/export_model.py --mode train --format pt2): what
// it records about itself (metadata key graphbench_train, JSON) and its initial state (the case's
// `state` file: a TorchScript module whose buffers s0, s1, ... are the state in the package's
// order). The package is called as (inputs..., target, state...) -> loss, the state updated in
// place (or returned after the loss; see engine/ops/aoti_training_step.h).
#pragma once

#include "models/model_case.h"

#include "graphbench/engine/plan/tensor_spec.h"
#include "graphbench/core/suite/suite_spec.h"

#include <ATen/ATen.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphbench::bench {

extern const char* const kTrainingMetadataKey;  // "graphbench_train"

struct StateEntry {
  std::string name;  // e.g. "conv1.weight", "bn1.running_mean", "conv1.weight.momentum_buffer"
  std::string role;  // "param", "buffer" or "optimizer"
  std::vector<std::int64_t> shape;
  // The strides the package was compiled for (a channels-last weight's differ from the contiguous
  // ones); empty where the record gives none: contiguous.
  std::vector<std::int64_t> strides;
  at::ScalarType dtype = at::kFloat;
};

struct TrainingStep {
  std::vector<StateEntry> state;
  std::optional<ModelInput> target;  // the loss's target (none for loss mean), drawn as an input is
  bool state_returned = false;       // the package returns the new state after the loss
  std::string summary;               // "loss cross_entropy, sgd (lr 0.01, momentum 0.9)"
};

bool records_training_step(const std::map<std::string, std::string>& metadata);

// The package's graphbench_train entry, checked. Throws InputError "<suite>: <case>/path: <package>:
// ..." naming what is missing or malformed.
TrainingStep read_training_step(const CaseSpec& spec, const std::string& package,
                                const std::map<std::string, std::string>& metadata);

// The initial state from the case's `state` file on `device`, one tensor per entry of `step`,
// each checked against the package's record (shape, dtype, strides: the package computes with the
// strides it was compiled for, so they are kept as the file has them). Throws InputError
// "<suite>: <case>/state: <file>: ...".
std::vector<at::Tensor> load_initial_state(const CaseSpec& spec, const TrainingStep& step, at::Device device);

}  // namespace graphbench::bench
