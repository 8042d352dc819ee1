// MNIST-format data as tensors on the device: images normalised as the tutorial does
// ((x / 255 - 0.1307) / 0.3081, shape [N, 1, 28, 28]) and int64 labels. The whole split lives on
// the device, so a batch is a slice (no host data loader in the loop).
#pragma once

#include <ATen/ATen.h>

#include <string>

namespace graphbench::mnist {

struct Split {
  at::Tensor images;  // float32 [N, 1, 28, 28]
  at::Tensor labels;  // int64 [N]
  std::int64_t size() const { return labels.size(0); }
};

// Reads `dir` (raw or gzipped IDX files); InputError naming the file when something is wrong.
Split load_split(const std::string& dir, bool train, at::Device device);

}  // namespace graphbench::mnist
