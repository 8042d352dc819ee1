// MNIST-format data: images normalised as the tutorial does, int64 labels, on the device (or the host).
#pragma once

#include "graphbench/core/base/non_copyable.h"

#include <ATen/ATen.h>

#include <memory>
#include <string>

namespace graphbench::mnist {

struct Split {
  at::Tensor images;  // float32 [N, 1, 28, 28]
  at::Tensor labels;  // int64 [N]
  std::int64_t size() const { return labels.size(0); }
};

// Reads `dir` (raw or gzipped IDX): bytes go to `device` (a quarter of the floats) and are
// normalised there in float32, the same bits everywhere. InputError naming the file.
Split load_split(const std::string& dir, bool train, at::Device device);

struct Splits {
  Split train;
  Split test;
};

// Both splits decoded in the background while the caller builds and captures: the tensors are made at
// the addresses they keep, finish() fills them.
class SplitsLoader : NonCopyable {
 public:
  SplitsLoader(const std::string& dir, at::Device device);
  ~SplitsLoader();

  // The tensors; their values are the data once finish() has returned.
  const Splits& splits() const { return splits_; }
  // Waits for the decoding, then fills the tensors (queued on the device, not waited for).
  void finish();
  // Seconds the slower of the two threads took to read and decode its split (after finish()).
  double decode_seconds() const { return decode_seconds_; }

 private:
  struct Pending;
  Splits splits_;
  std::unique_ptr<Pending> train_;
  std::unique_ptr<Pending> test_;
  double decode_seconds_ = 0.0;
};

}  // namespace graphbench::mnist
