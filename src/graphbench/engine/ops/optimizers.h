// Optimizer updates as in-place ops aliasing the params and state they update; learning rate and
// step are device tensors, so each replay does a real step (bias corrections change: pytorch#76368).
// As torch::optim: SGD with momentum (no dampening or Nesterov), Adam, AdamW (decoupled decay).
#pragma once

#include "graphbench/engine/plan/builder.h"

#include <string>
#include <vector>

namespace graphbench::ops {

struct SgdOptions {
  double lr = 0.01;
  double momentum = 0.0;
  double weight_decay = 0.0;
};

struct AdamOptions {
  double lr = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.0;
  bool decoupled_weight_decay = false;  // AdamW
};

// State externals created (role state, filled on first use):
//   "<prefix>.lr"                     the learning rate, a 0-dim float32 device tensor
//   "<param>.momentum_buffer"         zeros, when momentum != 0
// Returns the updated params (values aliasing the params' slots).
std::vector<ValueId> sgd_step(Builder& b, const std::vector<ValueId>& params, const std::vector<ValueId>& grads,
                              const SgdOptions& options, const std::string& prefix = "sgd");

// State externals: "<prefix>.lr", "<prefix>.step" (0-dim float32), "<param>.exp_avg",
// "<param>.exp_avg_sq". Returns the updated params.
std::vector<ValueId> adam_step(Builder& b, const std::vector<ValueId>& params, const std::vector<ValueId>& grads,
                               const AdamOptions& options, const std::string& prefix = "adam");

// An optimizer as a case names it: "sgd" (momentum: sgd only), "adam" or "adamw".
struct OptimizerChoice {
  std::string name = "sgd";
  double lr = 0.01;
  double momentum = 0.0;
  double weight_decay = 0.0;
};

// sgd_step or adam_step as `choice` names it; another name throws std::invalid_argument.
std::vector<ValueId> optimizer_step(Builder& b, const std::vector<ValueId>& params, const std::vector<ValueId>& grads,
                                    const OptimizerChoice& choice);

}  // namespace graphbench::ops
