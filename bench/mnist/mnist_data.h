// MNIST-format data as tensors: images normalised as the tutorial does (mean 0.1307, std 0.3081,
// shape [N, 1, 28, 28], float32) and int64 labels, on the device that trains on them (or in host
// memory for the host path, --data-on-host).
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

// Reads `dir` (raw or gzipped IDX files): zlib inflates straight into a byte tensor, which goes to
// `device` as bytes (a quarter of the floats) and is normalised there, as
// (x * (1/255) - 0.1307) * (1/0.3081) in float32: the same bits on every device. InputError naming
// the file when something is wrong (images must be 28x28).
Split load_split(const std::string& dir, bool train, at::Device device);

struct Splits {
  Split train;
  Split test;
};

// Both splits, loaded in the background so that reading and decoding (zlib's inflate, most of
// the loading time) overlaps with what the caller does meanwhile: building the model and
// programs, warming up and capturing, none of which depends on the data's values.
//
// The constructor waits only for the files' headers: then the tensors of both splits exist on
// `device`, zero-filled, at the addresses they keep, while two threads inflate the bytes into
// host memory. finish() waits for them and puts the data in place (copied to the device and
// normalised into those very tensors), so programs bound or captured on them meanwhile read the
// data. Errors in the files come out of the constructor (headers) or finish() (the rest).
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
