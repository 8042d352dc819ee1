// Neural-network layers and the workloads' losses as ops; those autograd records allocate their outputs.
#pragma once

#include "graphbench/engine/plan/builder.h"

namespace graphbench::ops {

// y = x W^T + b; x [N, in], W [out, in], b [out].
ValueId linear(Builder& b, ValueId x, ValueId weight, ValueId bias);
// 2-D convolution, stride 1, no padding; x [N, C, H, W], weight [O, C, kH, kW], bias [O].
ValueId conv2d(Builder& b, ValueId x, ValueId weight, ValueId bias);
ValueId max_pool2d(Builder& b, ValueId x, std::int64_t kernel);
// Dropout with probability p (0: the identity, no kernel); `feature` drops whole channels (Dropout2d).
ValueId dropout(Builder& b, ValueId x, double p, bool feature = false);
// [N, ...] -> [N, prod(...)]
ValueId flatten(Builder& b, ValueId x);
ValueId log_softmax(Builder& b, ValueId x, std::int64_t dim);
// Mean squared error (mean over all elements): a 0-dim loss.
ValueId mse_loss(Builder& b, ValueId prediction, ValueId target);
// The mean of all elements: a 0-dim value (a loss of its own for a model whose output is one).
ValueId mean(Builder& b, ValueId x);
// Negative log likelihood of log-probabilities [N, C] and int64 targets [N], mean: a 0-dim loss.
ValueId nll_loss(Builder& b, ValueId log_probs, ValueId target);
// The same, summed over the batch (the tutorial's test loss).
ValueId nll_loss_sum(Builder& b, ValueId log_probs, ValueId target);
// How many rows' argmax equals the target: an int64 0-dim count (not differentiable).
ValueId count_correct(Builder& b, ValueId scores, ValueId target);

}  // namespace graphbench::ops
