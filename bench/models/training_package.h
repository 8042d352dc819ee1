// A training step's AOTInductor package: its record (metadata graphbench_train) and initial state (the
// `state` file's buffers s0, s1, ...); called as (inputs..., target, state...) -> loss.
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
  std::vector<std::int64_t> strides;  // compiled for (channels-last differs); empty: contiguous
  at::ScalarType dtype = at::kFloat;
};

struct TrainingStep {
  std::vector<StateEntry> state;
  std::optional<ModelInput> target;  // the loss's target (none for loss mean), drawn as an input is
  bool state_returned = false;       // the package returns the new state after the loss
  std::string summary;               // "loss cross_entropy, sgd (lr 0.01, momentum 0.9)"
};

bool records_training_step(const std::map<std::string, std::string>& metadata);

// The package's graphbench_train entry, checked (InputError naming what is missing or malformed).
TrainingStep read_training_step(const CaseSpec& spec, const std::string& package,
                                const std::map<std::string, std::string>& metadata);

// The initial state from the case's `state` file on `device`, each checked against the record
// (shape, dtype, strides, kept as the file has them); InputError "<suite>: <case>/state: ...".
std::vector<at::Tensor> load_initial_state(const CaseSpec& spec, const TrainingStep& step, at::Device device);

}  // namespace graphbench::bench
