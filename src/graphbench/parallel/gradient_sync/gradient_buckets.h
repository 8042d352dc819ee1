// A data-parallel step's gradients averaged bucket by bucket as DistributedDataParallel does (bfloat16
// as its bf16_compress_hook), buckets launched in order so every rank issues the same all-reduces; a
// solo world averages nothing. A joined range (a weight's row chunks) is averaged into one buffer, the
// whole gradient a view of it. CUDA: on a side stream joined in finish(), no host sync, so it all
// captures; copy-engine transport: copies on one side stream, waits and sums on another.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/communication/peer_exchange.h"
#include "graphbench/parallel/communication/symmetric_all_reduce.h"
#include "graphbench/parallel/gradient_sync/side_stream.h"
#include "graphbench/engine/plan/tensor_spec.h"

#include <ATen/ATen.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace graphbench::parallel {

// DistributedDataParallel's default bucket cap.
constexpr std::size_t kDefaultBucketBytes = std::size_t{25} << 20;

// Indices of `grads` per bucket: consecutive gradients of one dtype and device up to `bucket_bytes`
// (a larger gradient gets a bucket of its own).
std::vector<std::vector<std::size_t>> plan_buckets(const std::vector<TensorSpec>& grads, std::size_t bucket_bytes);

// The same in `order` (indices into `grads`).
std::vector<std::vector<std::size_t>> plan_buckets_in_order(const std::vector<TensorSpec>& grads,
                                                            const std::vector<std::size_t>& order,
                                                            std::size_t bucket_bytes);

// How a bucket's sum travels: the process group's all-reduce, copy engines (peer_exchange.h) or
// symmetric memory (symmetric_all_reduce.h).
enum class GradientTransport { kCollective, kCopyEngine, kSymmetricMemory };

// Gradients first, first + 1, ... of `numels` elements each, whose averages lie one after another.
struct JoinedRange {
  std::size_t first = 0;
  std::vector<std::int64_t> numels;
};

class BucketedAverage {
 public:
  // `buckets`: gradient indices per bucket in launch order (each once); `joined`: disjoint ranges.
  BucketedAverage(std::shared_ptr<Communicator> communicator, std::vector<std::vector<std::size_t>> buckets,
                  const std::vector<TensorSpec>& grads, bool bfloat16, std::vector<JoinedRange> joined = {},
                  GradientTransport transport = GradientTransport::kCollective);

  // Starts a step. The copy-engine transport's first opens the exchange (collective; not while capturing).
  void begin();
  // Gradient `index` (held until finish()); launches the buckets it completes, returns how many.
  // `owned`: nothing else reads `grad`, so a bucket of it alone may be reduced in place.
  std::size_t ready(std::size_t index, at::Tensor grad, bool owned);
  // Waits for (CPU) or joins (CUDA) every bucket: the averages by index; EngineError for a missing one.
  std::vector<at::Tensor> finish();

  const std::vector<std::vector<std::size_t>>& buckets() const { return buckets_; }

 private:
  struct Launched {
    std::vector<at::Tensor> parts;  // the gradients, flat
    at::Tensor result;              // the averaged gradients, flat, in their own dtype
    at::Tensor packed;              // the gradients packed: `result` itself, or bfloat16
    at::Tensor wire;                // what the all-reduce sums: `packed`, or float32 (Gloo)
    PendingCollective pending;
  };
  void launch(std::size_t bucket);
  // Bucket `b` through the exchange into `l.result`, on the side stream.
  void exchange(std::size_t b, Launched& l);
  void average(Launched& launched) const;  // after the sum: divide, or cast back
  bool copy_engine() const { return transport_ == GradientTransport::kCopyEngine && communicator_->world_size() > 1; }
  bool symmetric() const {
    return transport_ == GradientTransport::kSymmetricMemory && communicator_->world_size() > 1;
  }
  // The one-GPU baseline (Communicator::solo); another world of one (--nproc 1) still runs collectives.
  bool alone() const { return communicator_->is_solo(); }
  // Where bucket `b`'s averages go in its joined range's buffer (made at its first launch), or
  // undefined where the bucket is not consecutive gradients of one range.
  at::Tensor place_in_joined_range(std::size_t b, const at::Tensor& grad, std::int64_t numel);

  std::shared_ptr<Communicator> communicator_;
  std::vector<std::vector<std::size_t>> buckets_;
  std::vector<std::size_t> bucket_of_;  // by gradient index
  bool bfloat16_;
  bool averages_in_all_reduce_;  // NCCL: the all-reduce averages; Gloo: it sums, and average() divides
  std::vector<JoinedRange> joined_;
  std::vector<std::size_t> range_of_;         // by gradient index: its joined range, or joined_.size()
  std::vector<std::int64_t> offset_in_range_;  // by gradient index: elements before it in its range
  GradientTransport transport_;
  std::vector<std::size_t> slot_offset_;  // per bucket: its bytes' place in a rank's exchange slot
  std::size_t slot_bytes_ = 0;
  std::unique_ptr<PeerExchange> exchange_;
  std::unique_ptr<SymmetricAllReduce> symmetric_;
  SideStream side_;
  SideStream sums_;  // copy-engine transport: the waits for the peers' copies and the sums

  // This step's state.
  std::vector<at::Tensor> grads_;
  std::vector<bool> owned_;
  std::vector<std::size_t> missing_;  // per bucket: gradients still to come
  std::size_t next_launch_ = 0;
  std::vector<Launched> launched_;
  std::vector<at::Tensor> range_buffers_;  // per joined range, flat
};

}  // namespace graphbench::parallel
