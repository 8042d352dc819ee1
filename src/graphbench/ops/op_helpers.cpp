#include "graphbench/ops/op_helpers.h"

#include <ATen/ExpandUtils.h>
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

}  // namespace graphbench::ops_detail
