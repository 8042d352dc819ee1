#include "graphbench/engine/plan/tensor_spec.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace graphbench {

std::int64_t TensorSpec::numel() const {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

std::string shape_to_string(const std::vector<std::int64_t>& shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

std::string to_string(const TensorSpec& spec) {
  return fmt::format("{}{} on {}", dtype_name(spec.dtype), shape_to_string(spec.shape),
                     spec.device.str());
}

std::string to_string(const std::vector<TensorSpec>& specs) {
  std::vector<std::string> parts;
  for (const auto& spec : specs) parts.push_back(to_string(spec));
  return fmt::format("{}", fmt::join(parts, ", "));
}

TensorSpec spec_of(const at::Tensor& tensor) {
  return TensorSpec{tensor.sizes().vec(), tensor.scalar_type(), tensor.device()};
}

at::Tensor allocate(const TensorSpec& spec) { return at::empty(spec.shape, spec.options()); }

namespace {
struct DtypeName {
  const char* name;
  at::ScalarType type;
};
constexpr DtypeName kDtypeNames[] = {
    {"float32", at::kFloat}, {"float16", at::kHalf}, {"bfloat16", at::kBFloat16},
    {"float64", at::kDouble}, {"int64", at::kLong},  {"int32", at::kInt},
    {"uint8", at::kByte},     {"bool", at::kBool},
};
}  // namespace

at::ScalarType dtype_from_name(const std::string& name) {
  for (const auto& entry : kDtypeNames) {
    if (name == entry.name) return entry.type;
  }
  throw InputError(fmt::format("unknown dtype \"{}\"", name));
}

std::string dtype_name(at::ScalarType dtype) {
  for (const auto& entry : kDtypeNames) {
    if (dtype == entry.type) return entry.name;
  }
  return c10::toString(dtype);
}

}  // namespace graphbench
