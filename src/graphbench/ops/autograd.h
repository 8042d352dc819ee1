// The backward pass as an op: gradients of a loss with respect to params, by LibTorch autograd.
// The gradients are internal values of the program (no `.grad` fields, nothing to zero).
#pragma once

#include "graphbench/plan/builder.h"

#include <vector>

namespace graphbench::ops {

// Returns one gradient value per param, in order. The params get requires_grad in the program.
std::vector<ValueId> backward(Builder& b, ValueId loss, const std::vector<ValueId>& params);

}  // namespace graphbench::ops
