// Optimizer updates as in-place ops. Each update op's outputs alias the params and state it
// updates (the alias map makes output slot == input slot before anything runs), and the learning
// rate and step count are device tensors (state externals), so a captured graph does real
// optimizer steps on every replay: bias corrections change from replay to replay (pytorch#76368).
//
// Semantics follow torch::optim: SGD with momentum (dampening 0, not Nesterov) and L2 weight
// decay; Adam with L2 weight decay, AdamW with decoupled weight decay.
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

// An optimizer as a case names it: "sgd" (momentum applies to it only), "adam" or "adamw" (Adam
// with decoupled weight decay), each at its defaults otherwise.
struct OptimizerChoice {
  std::string name = "sgd";
  double lr = 0.01;
  double momentum = 0.0;
  double weight_decay = 0.0;
};

// sgd_step or adam_step as `choice` names it, under their default prefixes; another name throws
// std::invalid_argument (a workload's descriptor admits only these three).
std::vector<ValueId> optimizer_step(Builder& b, const std::vector<ValueId>& params, const std::vector<ValueId>& grads,
                                    const OptimizerChoice& choice);

}  // namespace graphbench::ops
