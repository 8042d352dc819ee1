// The backward pass as an op (LibTorch autograd): the gradients are values of the program, no `.grad`.
#pragma once

#include "graphbench/engine/plan/builder.h"

#include <vector>

namespace graphbench::ops {

// Returns one gradient value per param, in order. The params get requires_grad in the program.
std::vector<ValueId> backward(Builder& b, ValueId loss, const std::vector<ValueId>& params);

// For an op of inputs (loss, params...) (this backward, overlapped_backward.h's): its output specs
// (the params'; the loss must be 0-dim) and the inputs it differentiates.
std::vector<TensorSpec> gradient_specs_of(const Op& op, const std::vector<TensorSpec>& in, std::size_t num_params);
std::vector<int> param_inputs(std::size_t num_params);

}  // namespace graphbench::ops
