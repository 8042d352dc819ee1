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

std::vector<TensorSpec> output_specs_of_call(const std::function<std::vector<at::Tensor>()>& call, const char* what,
                                             const std::string& label, const std::vector<TensorSpec>& example_specs) {
  at::NoGradGuard no_grad;
  std::vector<at::Tensor> outputs;
  try {
    outputs = call();
  } catch (const std::exception& e) {
    throw EngineError(fmt::format("{} {} rejects the inputs {}: {}", what, label, to_string(example_specs), error_text(e)));
  }
  if (outputs.empty()) throw EngineError(fmt::format("{} {} returned no tensor", what, label));
  std::vector<TensorSpec> specs;
  for (const auto& t : outputs) specs.push_back(spec_of(t));
  return specs;
}

}  // namespace graphbench::ops_detail
