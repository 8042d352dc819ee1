// A tensor slot's shape, dtype and device: fixed buffers are allocated from it, feeds checked by it.
#pragma once

#include <ATen/ATen.h>

#include <string>
#include <vector>

namespace graphbench {

struct TensorSpec {
  std::vector<std::int64_t> shape;
  at::ScalarType dtype = at::kFloat;
  at::Device device = at::kCPU;

  bool operator==(const TensorSpec& other) const {
    return shape == other.shape && dtype == other.dtype && device == other.device;
  }
  bool operator!=(const TensorSpec& other) const { return !(*this == other); }

  std::int64_t numel() const;
  at::TensorOptions options() const { return at::TensorOptions().dtype(dtype).device(device); }
};

// "float32[64, 1, 28, 28] on cuda:0"
std::string to_string(const TensorSpec& spec);
// The specs, comma-separated: "float32[4, 5] on cpu, int64[4] on cpu"
std::string to_string(const std::vector<TensorSpec>& specs);
std::string shape_to_string(const std::vector<std::int64_t>& shape);
TensorSpec spec_of(const at::Tensor& tensor);
at::Tensor allocate(const TensorSpec& spec);

// "float32", "float16", "bfloat16", "int64", ...; throws InputError for an unknown name.
at::ScalarType dtype_from_name(const std::string& name);
std::string dtype_name(at::ScalarType dtype);

}  // namespace graphbench
