// Small helpers shared by the op implementations.
#pragma once

#include "graphbench/engine/plan/op.h"

#include <ATen/ATen.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace graphbench::ops_detail {

// A CPU scalar binary ops treat as a Python number: `at::mul_out(out, x, s)` on any device, capturable.
at::Tensor wrapped_scalar(double value);

// Shapes broadcast together, or throw_op_error.
std::vector<std::int64_t> broadcast_shapes(const Op& op, const TensorSpec& a, const TensorSpec& b);

// Throws throw_op_error unless both specs have the same dtype and device.
void expect_same_dtype_device(const Op& op, const TensorSpec& a, const TensorSpec& b);

// Throws unless the spec has `rank` dimensions.
void expect_rank(const Op& op, const TensorSpec& spec, std::size_t rank, const char* what);

// An op around a black box (`what`: "model" or "package") that runs only at its examples' specs, its
// output specs learnt from one no_grad call on them.
class BlackBoxOp : public Op {
 protected:
  BlackBoxOp(const char* what, std::string label, std::vector<at::Tensor> examples);
  // The output specs, where `inputs` are the examples' specs (else throw_op_error); `call` runs the box
  // on the examples once, the first time (EngineError "<what> <label> rejects the inputs ...").
  std::vector<TensorSpec> outputs_at(const std::vector<TensorSpec>& inputs,
                                     const std::function<std::vector<at::Tensor>()>& call) const;
  // A run's outputs into the op's, as many as when the program was built (else EngineError).
  void set_outputs(OpIO& io, std::vector<at::Tensor> outputs) const {
    if (outputs.size() != io.num_outputs()) throw_output_count(outputs.size(), io.num_outputs());
    for (std::size_t i = 0; i < outputs.size(); ++i) io.out(i) = std::move(outputs[i]);
  }

  const char* what_;
  std::string label_;
  std::vector<at::Tensor> examples_;
  std::vector<TensorSpec> example_specs_;

 private:
  [[noreturn]] void throw_output_count(std::size_t got, std::size_t built) const;
  mutable std::vector<TensorSpec> output_specs_;  // from the first infer()
};

}  // namespace graphbench::ops_detail
