// A data set split resident on one device, and batches gathered from it on the device.
//
// The split (images, labels), the epoch's order and a step counter are device tensors, held in
// the model store as state externals of the programs that read them. A program's gather op finds
// its batch where the counter points, and the program advances the counter at the end of its
// step, so a captured graph replays batch after batch with no work on the host (no feed, no copy
// from the host, no tensor made per step), and the eager executor runs the very same ops:
//
//   positions = (offset + [0, rows) + stride * step) mod split size
//   indices   = order[positions]
//   images    = split.images[indices]    labels = split.labels[indices]
//
// rows, stride and offset describe more than the plain batch: the short last batch of an epoch
// (rows < stride, at step = full batches), or one rank's shard of a data-parallel batch
// (offset = rank * rows, stride = ranks * rows). Within an epoch the positions stay below the
// split's size; a counter past the end (the warm-up runs before a capture advance it too, and a
// split may hold fewer batches than there are warm-up runs) wraps to the start instead of reading
// out of bounds.
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
  // `name` prefixes the store entries: "<name>.images", "<name>.labels", "<name>.order",
  // "<name>.step". `images` and `labels` are on the device already and share their first dim.
  DeviceBatches(std::string name, at::Tensor images, at::Tensor labels);

  const std::string& name() const { return name_; }
  std::int64_t size() const { return labels_.size(0); }
  at::Device device() const { return labels_.device(); }
  const at::Tensor& images() const { return images_; }
  const at::Tensor& labels() const { return labels_; }
  const at::Tensor& order() const { return order_; }
  const at::Tensor& step() const { return step_; }

  // Puts the split, the order (sequential until begin_epoch says otherwise) and the counter (0)
  // in `store`: the same tensors, so what this object updates the programs read.
  void install(ModelStore& store) const;

  // Sets the order of a new epoch (an int64 CPU tensor of size() positions, copied into the
  // device buffer without waiting) and sets the counter to 0. Queued on the device, no
  // synchronisation. An undefined `order` keeps the current one.
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
