// Small helpers shared by the op implementations.
#pragma once

#include "graphbench/engine/plan/op.h"

#include <ATen/ATen.h>

#include <functional>
#include <string>
#include <vector>

namespace graphbench::ops_detail {

// A CPU scalar that binary ops treat like a Python number (no type promotion), so that
// `at::mul_out(out, x, scalar)` works on any device and dtype and can be captured.
at::Tensor wrapped_scalar(double value);

// Shapes broadcast together, or throw_op_error.
std::vector<std::int64_t> broadcast_shapes(const Op& op, const TensorSpec& a, const TensorSpec& b);

// Throws throw_op_error unless both specs have the same dtype and device.
void expect_same_dtype_device(const Op& op, const TensorSpec& a, const TensorSpec& b);

// Throws unless the spec has `rank` dimensions.
void expect_rank(const Op& op, const TensorSpec& spec, std::size_t rank, const char* what);

// The output specs of a black box ("model" or "package" `what`) from one no_grad call on its
// examples; EngineError "<what> <label> rejects the inputs ...: <why>" or "... returned no tensor".
std::vector<TensorSpec> output_specs_of_call(const std::function<std::vector<at::Tensor>()>& call, const char* what,
                                             const std::string& label, const std::vector<TensorSpec>& example_specs);

}  // namespace graphbench::ops_detail
