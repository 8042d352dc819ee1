#include "graphbench/engine/ops/op_helpers.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/exec/error_text.h"

#include <ATen/ExpandUtils.h>
#include <ATen/core/grad_mode.h>
#include <fmt/format.h>

namespace graphbench::ops_detail {

at::Tensor wrapped_scalar(double value) {
  at::Tensor t = at::scalar_tensor(value, at::TensorOptions().dtype(at::kDouble));
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

std::vector<std::int64_t> broadcast_shapes(const Op& op, const TensorSpec& a, const TensorSpec& b) {
  try {
    return at::infer_size(a.shape, b.shape);
  } catch (const std::exception&) {
    throw_op_error(op, fmt::format("shapes {} and {} do not broadcast", shape_to_string(a.shape),
                                   shape_to_string(b.shape)));
  }
}

void expect_same_dtype_device(const Op& op, const TensorSpec& a, const TensorSpec& b) {
  if (a.dtype != b.dtype || a.device != b.device) {
    throw_op_error(op, fmt::format("inputs differ in dtype or device: {} vs {}", to_string(a), to_string(b)));
  }
}

void expect_rank(const Op& op, const TensorSpec& spec, std::size_t rank, const char* what) {
  if (spec.shape.size() != rank) {
    throw_op_error(op, fmt::format("{} must have {} dimensions, got {}", what, rank, to_string(spec)));
  }
}

BlackBoxOp::BlackBoxOp(const char* what, std::string label, std::vector<at::Tensor> examples)
    : what_(what), label_(std::move(label)), examples_(std::move(examples)) {
  for (const auto& example : examples_) example_specs_.push_back(spec_of(example));
}

std::vector<TensorSpec> BlackBoxOp::outputs_at(const std::vector<TensorSpec>& inputs,
                                               const std::function<std::vector<at::Tensor>()>& call) const {
  if (inputs != example_specs_) {
    throw_op_error(*this, fmt::format("the {} runs at its declared inputs ({}) only, got {}", what_,
                                      to_string(example_specs_), to_string(inputs)));
  }
  if (!output_specs_.empty()) return output_specs_;
  at::NoGradGuard no_grad;
  std::vector<at::Tensor> outputs;
  try {
    outputs = call();
  } catch (const std::exception& e) {
    throw EngineError(
        fmt::format("{} {} rejects the inputs {}: {}", what_, label_, to_string(example_specs_), error_text(e)));
  }
  if (outputs.empty()) throw EngineError(fmt::format("{} {} returned no tensor", what_, label_));
  for (const auto& t : outputs) output_specs_.push_back(spec_of(t));
  return output_specs_;
}

void BlackBoxOp::throw_output_count(std::size_t got, std::size_t built) const {
  throw EngineError(fmt::format("{} {} returned {} tensors, {} when the program was built", what_, label_, got, built));
}

}  // namespace graphbench::ops_detail
