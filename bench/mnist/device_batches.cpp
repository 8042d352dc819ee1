#include "mnist/device_batches.h"
#include "mnist/in_place_update_op.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/plan/op.h"

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>

#include <utility>

namespace graphbench::bench {

namespace {

// Gathers one batch where the counter points (see the header), computed into the output slots.
class GatherBatchOp final : public Op {
 public:
  GatherBatchOp(const GatherShape& shape, at::Device device)
      : shape_(shape),
        base_(at::arange(shape.offset, shape.offset + shape.rows, at::TensorOptions().dtype(at::kLong).device(device))) {}

  std::string signature() const override {
    return fmt::format("gather_batch(rows={}, stride={}, offset={})", shape_.rows, shape_.stride, shape_.offset);
  }

  // Inputs: images [N, ...], labels [N], order int64 [N], step int64 [].
  // Outputs: images [rows, ...], labels [rows], indices int64 [rows], positions int64 [rows].
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 4);
    const TensorSpec& images = in[0];
    const TensorSpec& labels = in[1];
    const TensorSpec& order = in[2];
    const TensorSpec& step = in[3];
    if (images.shape.empty() || labels.shape.size() != 1 || labels.shape[0] != images.shape[0]) {
      throw_op_error(*this, fmt::format("images {} and labels {} must share their first dim", to_string(images),
                                        to_string(labels)));
    }
    if (order.dtype != at::kLong || order.shape != labels.shape) {
      throw_op_error(*this, fmt::format("order must be int64 {}, got {}", shape_to_string(labels.shape), to_string(order)));
    }
    if (step.dtype != at::kLong || !step.shape.empty()) {
      throw_op_error(*this, fmt::format("the step counter must be a 0-dim int64 tensor, got {}", to_string(step)));
    }
    for (const TensorSpec* s : {&labels, &order, &step}) {
      if (s->device != images.device) {
        throw_op_error(*this, fmt::format("{} is not on the images' device {}", to_string(*s), to_string(images)));
      }
    }
    if (base_.device() != images.device) {
      throw_op_error(*this, fmt::format("built for {}, the data is on {}", base_.device().str(), images.device.str()));
    }
    TensorSpec batch_images = images;
    batch_images.shape[0] = shape_.rows;
    const TensorSpec index{{shape_.rows}, at::kLong, images.device};
    return {batch_images, TensorSpec{{shape_.rows}, labels.dtype, labels.device}, index, index};
  }

  bool differentiable() const override { return false; }
  bool computes_into_outputs() const override { return true; }

  void run(OpIO& io) const override {
    at::NoGradGuard no_grad;
    const at::Tensor& step = io.in(3);
    at::Tensor& positions = io.out(3);
    at::Tensor& indices = io.out(2);
    const std::int64_t size = io.in(2).size(0);
    if (positions.defined()) {
      at::add_out(positions, base_, step, shape_.stride);
      positions.remainder_(size);
      at::index_select_out(indices, io.in(2), 0, positions);
      at::index_select_out(io.out(0), io.in(0), 0, indices);
      at::index_select_out(io.out(1), io.in(1), 0, indices);
    } else {
      positions = at::add(base_, step, shape_.stride).remainder_(size);
      indices = at::index_select(io.in(2), 0, positions);
      io.out(0) = at::index_select(io.in(0), 0, indices);
      io.out(1) = at::index_select(io.in(1), 0, indices);
    }
  }

 private:
  GatherShape shape_;
  at::Tensor base_;  // offset + [0, rows), on the data's device
};

// step += 1, in place.
class AdvanceOp final : public InPlaceUpdateOp {
 public:
  std::string signature() const override { return "advance_step"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 1);
    if (in[0].dtype != at::kLong || !in[0].shape.empty()) {
      throw_op_error(*this, fmt::format("the step counter must be a 0-dim int64 tensor, got {}", to_string(in[0])));
    }
    return {in[0]};
  }

 private:
  void update(OpIO& io) const override { io.in(0).add_(1); }
};

}  // namespace

DeviceBatches::DeviceBatches(std::string name, at::Tensor images, at::Tensor labels)
    : name_(std::move(name)), images_(std::move(images)), labels_(std::move(labels)) {
  if (!images_.defined() || !labels_.defined() || images_.dim() == 0 || labels_.dim() != 1 ||
      images_.size(0) != labels_.size(0) || images_.device() != labels_.device()) {
    throw EngineError(fmt::format("device batches {}: images and labels must be tensors on one device sharing "
                                  "their first dim",
                                  name_));
  }
  const auto options = at::TensorOptions().dtype(at::kLong).device(labels_.device());
  order_ = at::arange(labels_.size(0), options);
  step_ = at::zeros({}, options);
}

void DeviceBatches::install(ModelStore& store) const {
  store.set(name_ + ".images", images_);
  store.set(name_ + ".labels", labels_);
  store.set(name_ + ".order", order_);
  store.set(name_ + ".step", step_);
}

void DeviceBatches::begin_epoch(const at::Tensor& order) {
  at::NoGradGuard no_grad;
  if (order.defined()) {
    if (order.device().is_cpu() && order_.is_cuda()) {
      // From pinned memory the copy is queued and the host goes on (the block kept until it is done).
      order_.copy_(order.pin_memory(), /*non_blocking=*/true);
    } else {
      order_.copy_(order);
    }
  }
  step_.zero_();
}

GatheredBatch DeviceBatches::gather(Builder& b, const GatherShape& shape) const {
  if (shape.rows < 1 || shape.stride < 1 || shape.offset < 0) {
    throw EngineError(fmt::format("device batches {}: a gather needs rows >= 1, stride >= 1 and offset >= 0 "
                                  "(got rows {}, stride {}, offset {})",
                                  name_, shape.rows, shape.stride, shape.offset));
  }
  const ValueId images = b.state(name_ + ".images", spec_of(images_));
  const ValueId labels = b.state(name_ + ".labels", spec_of(labels_));
  const ValueId order = b.state(name_ + ".order", spec_of(order_));
  const ValueId step = b.state(name_ + ".step", spec_of(step_), 0.0);
  const auto out = b.add(std::make_shared<GatherBatchOp>(shape, device()), {images, labels, order, step},
                         {name_ + ".batch_images", name_ + ".batch_labels", name_ + ".batch_indices",
                          name_ + ".batch_positions"});
  return GatheredBatch{out[0], out[1], out[2], step};
}

ValueId DeviceBatches::advance(Builder& b, ValueId step) const {
  return b.add1(std::make_shared<AdvanceOp>(), {step}, name_ + ".step'");
}

}  // namespace graphbench::bench
