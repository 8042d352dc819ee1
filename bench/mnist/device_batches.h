// A data set split resident on one device, batches gathered from it on the device. Split, epoch order
// and step counter are store state the programs read; a program gathers its batch where the counter
// points and advances it at the end, so a captured graph replays batch after batch with no host work:
//   positions = (offset + [0, rows) + stride * step) mod split size
//   indices   = order[positions];  images = split.images[indices];  labels = split.labels[indices]
// rows, stride and offset also give an epoch's short last batch and a rank's shard (offset = rank *
// rows, stride = ranks * rows). A counter past the end (warm-up runs advance it too) wraps.
#pragma once

#include "graphbench/engine/exec/model_store.h"
#include "graphbench/engine/plan/builder.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <string>

namespace graphbench::bench {

struct GatherShape {
  std::int64_t rows = 0;    // samples per batch
  std::int64_t stride = 0;  // positions the counter advances per step (usually rows)
  std::int64_t offset = 0;  // first position of step 0
};

// The values one gather adds to a program.
struct GatheredBatch {
  ValueId images = -1;   // [rows, ...] the split's images at `indices`
  ValueId labels = -1;   // [rows]
  ValueId indices = -1;  // [rows] int64: the samples gathered (order[positions])
  ValueId step = -1;     // the counter, as this step read it
};

class DeviceBatches {
 public:
  // Store entries "<name>.images", ".labels", ".order", ".step"; images and labels on the device.
  DeviceBatches(std::string name, at::Tensor images, at::Tensor labels);

  const std::string& name() const { return name_; }
  std::int64_t size() const { return labels_.size(0); }
  at::Device device() const { return labels_.device(); }
  const at::Tensor& images() const { return images_; }
  const at::Tensor& labels() const { return labels_; }
  const at::Tensor& order() const { return order_; }
  const at::Tensor& step() const { return step_; }

  // Puts these very tensors in `store` (order sequential, counter 0).
  void install(ModelStore& store) const;

  // A new epoch: `order` (int64 CPU, size(); undefined keeps it) copied in and the counter zeroed,
  // queued without waiting.
  void begin_epoch(const at::Tensor& order);

  // Adds the gather of one batch to a program (declaring the state externals it reads).
  GatheredBatch gather(Builder& b, const GatherShape& shape) const;
  // Adds the counter's advance by one (in place); put it last, after every op that reads `step`.
  ValueId advance(Builder& b, ValueId step) const;

 private:
  std::string name_;
  at::Tensor images_;
  at::Tensor labels_;
  at::Tensor order_;  // int64 [N]
  at::Tensor step_;   // int64 []
};

}  // namespace graphbench::bench
