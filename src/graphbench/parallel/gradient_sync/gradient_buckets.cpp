#include "graphbench/parallel/gradient_sync/gradient_buckets.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/ops/op_helpers.h"

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace graphbench::parallel {

namespace {

std::size_t bytes_of(const TensorSpec& spec) {
  return static_cast<std::size_t>(spec.numel()) * c10::elementSize(spec.dtype);
}

}  // namespace

std::vector<std::vector<std::size_t>> plan_buckets_in_order(const std::vector<TensorSpec>& grads,
                                                            const std::vector<std::size_t>& order,
                                                            std::size_t bucket_bytes) {
  std::vector<std::vector<std::size_t>> buckets;
  std::size_t filled = 0;
  for (std::size_t i : order) {
    const std::size_t bytes = bytes_of(grads.at(i));
    const bool fits = !buckets.empty() && filled + bytes <= bucket_bytes &&
                      grads[buckets.back().front()].dtype == grads[i].dtype &&
                      grads[buckets.back().front()].device == grads[i].device;
    if (fits) {
      buckets.back().push_back(i);
      filled += bytes;
    } else {
      buckets.push_back({i});
      filled = bytes;
    }
  }
  return buckets;
}

std::vector<std::vector<std::size_t>> plan_buckets(const std::vector<TensorSpec>& grads, std::size_t bucket_bytes) {
  std::vector<std::size_t> order(grads.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  return plan_buckets_in_order(grads, order, bucket_bytes);
}

BucketedAverage::BucketedAverage(std::shared_ptr<Communicator> communicator,
                                 std::vector<std::vector<std::size_t>> buckets, const std::vector<TensorSpec>& grads,
                                 bool bfloat16, std::vector<JoinedRange> joined, GradientTransport transport)
    : communicator_(std::move(communicator)),
      buckets_(std::move(buckets)),
      bucket_of_(grads.size(), buckets_.size()),
      bfloat16_(bfloat16),
      averages_in_all_reduce_(communicator_->averages_in_all_reduce()),
      joined_(std::move(joined)),
      range_of_(grads.size(), joined_.size()),
      offset_in_range_(grads.size(), 0),
      transport_(transport),
      side_(communicator_->device()),
      sums_(communicator_->device()) {
  const std::size_t count = grads.size();
  for (std::size_t r = 0; r < joined_.size(); ++r) {
    std::int64_t offset = 0;
    for (std::size_t k = 0; k < joined_[r].numels.size(); ++k) {
      const std::size_t i = joined_[r].first + k;
      if (i >= count || range_of_[i] != joined_.size()) {
        throw EngineError(fmt::format("joined range {} holds gradient {}: out of range or in two ranges (of {} gradients)",
                                      r, i, count));
      }
      range_of_[i] = r;
      offset_in_range_[i] = offset;
      offset += joined_[r].numels[k];
    }
  }
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    if (buckets_[b].empty()) throw EngineError(fmt::format("gradient bucket {} is empty", b));
    for (std::size_t i : buckets_[b]) {
      if (i >= count || bucket_of_[i] != buckets_.size()) {
        throw EngineError(fmt::format("gradient {} is out of range or in two buckets (of {} gradients)", i, count));
      }
      bucket_of_[i] = b;
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (bucket_of_[i] == buckets_.size()) throw EngineError(fmt::format("gradient {} is in no bucket", i));
  }
  // Each bucket's place in an exchange slot as packed, at 256-byte boundaries (alike on every rank).
  for (const auto& bucket : buckets_) {
    std::size_t bytes = 0;
    for (std::size_t i : bucket) {
      bytes += static_cast<std::size_t>(grads[i].numel()) * c10::elementSize(bfloat16_ ? at::kBFloat16 : grads[i].dtype);
    }
    slot_offset_.push_back(slot_bytes_);
    slot_bytes_ += (bytes + 255) / 256 * 256;
  }
}

void BucketedAverage::begin() {
  if (copy_engine() && !exchange_) {
    if (is_capturing(communicator_->device())) {
      throw EngineError("the copy-engine all-reduce opens its exchange at the first step, which must not be captured "
                        "(run the step once before capturing it)");
    }
    exchange_ = std::make_unique<PeerExchange>(communicator_, slot_bytes_, buckets_.size());
  }
  if (symmetric() && !symmetric_) {
    if (is_capturing(communicator_->device())) {
      throw EngineError("the symmetric-memory all-reduce maps its block at the first step, which must not be captured "
                        "(run the step once before capturing it)");
    }
    symmetric_ = std::make_unique<SymmetricAllReduce>(communicator_, slot_bytes_);
  }
  grads_.assign(bucket_of_.size(), at::Tensor());
  owned_.assign(bucket_of_.size(), false);
  missing_.clear();
  for (const auto& bucket : buckets_) missing_.push_back(bucket.size());
  next_launch_ = 0;
  launched_.clear();
  launched_.resize(buckets_.size());
  range_buffers_.assign(joined_.size(), at::Tensor());
}

std::size_t BucketedAverage::ready(std::size_t index, at::Tensor grad, bool owned) {
  if (index >= grads_.size() || grads_[index].defined()) {
    throw EngineError(fmt::format("gradient {} handed over twice, or out of range (of {})", index, grads_.size()));
  }
  if (!grad.defined()) throw EngineError(fmt::format("gradient {} is undefined", index));
  grads_[index] = std::move(grad);
  owned_[index] = owned;
  --missing_[bucket_of_[index]];
  // In bucket order: a later bucket that filled first waits for the ones before it.
  std::size_t launched = 0;
  for (; next_launch_ < buckets_.size() && missing_[next_launch_] == 0; ++launched) launch(next_launch_++);
  return launched;
}

void BucketedAverage::launch(std::size_t b) {
  at::NoGradGuard no_grad;
  const std::vector<std::size_t>& members = buckets_[b];
  Launched& l = launched_[b];
  std::int64_t numel = 0;
  for (std::size_t i : members) {
    l.parts.push_back(grads_[i].reshape({-1}));
    numel += grads_[i].numel();
  }
  const at::TensorOptions options = grads_[members.front()].options();
  // Buffers from the current stream, held until finish(): the side stream never uses freed memory.
  const at::Tensor joined = place_in_joined_range(b, grads_[members.front()], numel);
  if (alone()) {
    // The one-GPU baseline: the gradients themselves; only a joined range's buffer is filled (its
    // weight's gradient is a view of it).
    if (joined.defined()) {
      l.result = joined;
      at::cat_out(l.result, l.parts, 0);
    }
    return;
  }
  if (copy_engine()) {
    l.result = joined.defined() ? joined : at::empty({numel}, options);
    // A bucket of one contiguous gradient is sent from where it is; others packed in this rank's slot.
    const bool as_is = !bfloat16_ && members.size() == 1 && l.parts.front().is_contiguous();
    const at::ScalarType packed_dtype = bfloat16_ ? at::kBFloat16 : options.dtype().toScalarType();
    l.packed = as_is ? l.parts.front() : exchange_->own_slot(slot_offset_[b], numel, packed_dtype);
    const auto on_side_stream = side_.fork();
    exchange(b, l);
    return;
  }
  if (symmetric()) {
    // Packed into the mapped block (bfloat16: divided first), summed in place, scaled into the averages.
    l.result = joined.defined() ? joined : at::empty({numel}, options);
    l.packed = symmetric_->slot(slot_offset_[b], numel, bfloat16_ ? at::kBFloat16 : options.dtype().toScalarType());
    const auto on_side_stream = side_.fork();
    at::cat_out(l.packed, l.parts, 0);
    const double n = static_cast<double>(communicator_->world_size());
    if (bfloat16_) l.packed.div_(n);
    symmetric_->sum_(l.packed);
    if (bfloat16_) {
      l.result.copy_(l.packed);
    } else {
      at::mul_out(l.result, l.packed, ops_detail::wrapped_scalar(1.0 / n));  // a CPU number: no kernel of its own
    }
    return;
  }
  // A bucket of one contiguous gradient that is ours alone is reduced where it is: no packing.
  const bool in_place = !joined.defined() && !bfloat16_ && members.size() == 1 && owned_[members.front()] &&
                        l.parts.front().is_contiguous();
  l.result = joined.defined() ? joined : in_place ? l.parts.front() : at::empty({numel}, options);
  l.packed = bfloat16_ ? at::empty({numel}, options.dtype(at::kBFloat16)) : l.result;
  // Gloo sums no bfloat16 here: the values travel as float32, the sum rounded to bfloat16 after.
  l.wire = bfloat16_ && !communicator_->sums_bfloat16() ? at::empty({numel}, options.dtype(at::kFloat)) : l.packed;

  const auto on_side_stream = side_.fork();
  if (!in_place) at::cat_out(l.packed, l.parts, 0);  // packs (and casts, compressed)
  if (averages_in_all_reduce_) {
    // NCCL divides inside the all-reduce's own kernel: no pass over the bucket before or after it.
    l.pending = communicator_->start_all_reduce_average_(l.wire);
  } else {
    if (bfloat16_) l.packed.div_(static_cast<double>(communicator_->world_size()));
    if (!l.wire.is_same(l.packed)) l.wire.copy_(l.packed);
    l.pending = communicator_->start_all_reduce_sum_(l.wire);
  }
  // On a GPU the average is queued behind the all-reduce, on the side stream.
  if (communicator_->device().is_cuda()) average(l);
}

void BucketedAverage::exchange(std::size_t b, Launched& l) {
  // The step's first bucket waits until the peers have read what this rank sent them last step.
  if (b == 0) exchange_->begin_step();
  if (!l.packed.is_same(l.parts.front())) at::cat_out(l.packed, l.parts, 0);
  if (bfloat16_) l.packed.div_(static_cast<double>(communicator_->world_size()));
  exchange_->send(b, slot_offset_[b], l.packed);
  // The average on a stream of its own, forked after the send: its wait for the peers' copies holds
  // up no later bucket's copy.
  const auto on_sums_stream = sums_.fork();
  exchange_->sum(b, slot_offset_[b], l.packed, l.result,
                 bfloat16_ ? 1.0 : 1.0 / static_cast<double>(communicator_->world_size()));
}

at::Tensor BucketedAverage::place_in_joined_range(std::size_t b, const at::Tensor& grad, std::int64_t numel) {
  const std::vector<std::size_t>& members = buckets_[b];
  const std::size_t r = range_of_[members.front()];
  if (r == joined_.size()) return {};
  for (std::size_t k = 0; k < members.size(); ++k) {
    const std::size_t i = members[k];
    const bool in_order = k == 0 || (range_of_[i] == r && i == members[k - 1] + 1);
    if (!in_order || grads_[i].numel() != joined_[r].numels[i - joined_[r].first]) return {};
  }
  at::Tensor& buffer = range_buffers_[r];
  if (!buffer.defined()) {
    std::int64_t total = 0;
    for (std::int64_t n : joined_[r].numels) total += n;
    buffer = at::empty({total}, grad.options());
  }
  if (buffer.scalar_type() != grad.scalar_type() || buffer.device() != grad.device()) return {};
  return buffer.narrow(0, offset_in_range_[members.front()], numel);
}

void BucketedAverage::average(Launched& l) const {
  if (!bfloat16_) {
    if (!averages_in_all_reduce_) l.result.div_(static_cast<double>(communicator_->world_size()));
  } else if (l.wire.is_same(l.packed)) {
    l.result.copy_(l.packed);
  } else {
    l.result.copy_(l.wire.to(at::kBFloat16));  // the float32 sum, rounded as a bfloat16 sum is
  }
}

std::vector<at::Tensor> BucketedAverage::finish() {
  if (next_launch_ < buckets_.size()) {
    std::vector<std::size_t> never;
    for (std::size_t i = 0; i < grads_.size(); ++i) {
      if (!grads_[i].defined()) never.push_back(i);
    }
    throw EngineError(fmt::format("the gradient average was finished without gradient(s) {}",
                                  fmt::join(never, ", ")));
  }
  at::NoGradGuard no_grad;
  for (Launched& l : launched_) {
    l.pending.wait();
    if (!alone() && !communicator_->device().is_cuda()) average(l);
  }
  if (copy_engine()) {
    // After the step's last sum and send: the peers may write into their slots here again.
    const auto on_side_stream = side_.fork();
    const auto on_sums_stream = sums_.fork();
    exchange_->end_step();
  }
  side_.join();
  sums_.join();
  std::vector<at::Tensor> averaged(grads_.size());
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    std::int64_t offset = 0;
    for (std::size_t i : buckets_[b]) {
      const at::Tensor& grad = grads_[i];
      // The one-GPU baseline outside a joined range: the gradient itself (launch() made no buffer).
      averaged[i] = launched_[b].result.defined() ? launched_[b].result.narrow(0, offset, grad.numel()).view(grad.sizes())
                                                  : grad;
      offset += grad.numel();
    }
  }
  grads_.assign(grads_.size(), at::Tensor());
  launched_.clear();
  range_buffers_.assign(joined_.size(), at::Tensor());
  return averaged;
}

}  // namespace graphbench::parallel
