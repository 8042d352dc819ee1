// The averaging of a data-parallel step's gradients, bucket by bucket, as DistributedDataParallel
// does it: each bucket (consecutive gradients of one dtype and device, at most a cap of bytes) is
// packed into one flat buffer and averaged over the ranks by one all-reduce (NCCL's average, which
// scales by 1/N inside its own kernel; on Gloo a sum, then a division by the world size); the
// averaged gradients are views of the buckets. With bfloat16 compression a bucket is packed as
// bfloat16, averaged (on Gloo: divided by the world size, then summed), and cast back (DDP's
// bf16_compress_hook).
//
// Gradients are handed over as they become ready (ready()), in any order; a bucket is launched as
// soon as all its gradients are there and every bucket before it was launched, so that every rank
// issues the same all-reduces in the same order. finish() returns the averaged gradients. In the
// one-GPU baseline of the scaling efficiency (a solo world) they are the gradients themselves: no
// collective, no division, no compression, as PyTorch's one-GPU step has no DistributedDataParallel.
//
// A joined range (the row chunks of one weight, row_chunked_linear.h) gets its averages one after
// another in one buffer of its own: a bucket of consecutive gradients of the range, in index
// order, is packed straight into their place in it, so that the weight's whole gradient is a view
// of that buffer with no copy after the all-reduce (chunked_params.h).
//
// On CUDA a launched bucket is packed, reduced and averaged on a side stream forked from the
// current stream (side_stream.h), and finish() joins that stream back into the current one: no
// host synchronisation, so the whole of it is captured in a CUDA graph. On the CPU (Gloo) the
// all-reduce runs on the process group's threads while the caller goes on; finish() waits for it
// and averages.
//
// With the copy-engine transport (GPUs of one host, more than one rank) a bucket is packed into
// this rank's slot of a PeerExchange (peer_exchange.h), copied to the other ranks and summed there,
// in place of the process group's all-reduce; the exchange is opened at the first step. The copies
// go on the side stream, the waits for the peers' copies and the sums on a second one, so that a
// bucket's copy never waits for an earlier bucket's sum.
//
// With the symmetric-memory transport (GPUs of one host, more than one rank) a bucket is packed
// into its place in a block every rank maps (symmetric_all_reduce.h) and summed there in place by
// LibTorch's two-shot all-reduce, then scaled into its averages, all on the side stream.
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

// Indices of `grads` per bucket, in order: consecutive gradients of one dtype and device while
// they fit in `bucket_bytes` (a gradient larger than the cap gets a bucket of its own).
std::vector<std::vector<std::size_t>> plan_buckets(const std::vector<TensorSpec>& grads, std::size_t bucket_bytes);

// The same for gradients listed in `order` (indices into `grads`): the buckets hold indices into `grads`.
std::vector<std::vector<std::size_t>> plan_buckets_in_order(const std::vector<TensorSpec>& grads,
                                                            const std::vector<std::size_t>& order,
                                                            std::size_t bucket_bytes);

// How a bucket's sum travels between the ranks: the process group's all-reduce (NCCL, or Gloo on
// the CPU), copies between the GPUs' memories on their copy engines (peer_exchange.h), or the
// two-shot all-reduce over symmetric memory (symmetric_all_reduce.h).
enum class GradientTransport { kCollective, kCopyEngine, kSymmetricMemory };

// Gradients first, first + 1, ... of `numels` elements each, whose averages lie one after another.
struct JoinedRange {
  std::size_t first = 0;
  std::vector<std::int64_t> numels;
};

class BucketedAverage {
 public:
  // `buckets`: indices of the gradients (`grads`: what each will be), per bucket, in launch order
  // (every index once). `joined`: ranges of gradients averaged into one buffer each (disjoint).
  BucketedAverage(std::shared_ptr<Communicator> communicator, std::vector<std::vector<std::size_t>> buckets,
                  const std::vector<TensorSpec>& grads, bool bfloat16, std::vector<JoinedRange> joined = {},
                  GradientTransport transport = GradientTransport::kCollective);

  // Starts a step: no gradient ready, no bucket launched. With the copy-engine transport the first
  // step opens the exchange (collective; not while capturing).
  void begin();
  // Gradient `index` of this step (held until finish()); launches the buckets it completes and
  // returns how many. `owned`: nothing else reads `grad` (a gradient fresh from autograd), so a
  // bucket of it alone may be reduced in place; otherwise it is only read.
  std::size_t ready(std::size_t index, at::Tensor grad, bool owned);
  // Waits for (CPU) or joins (CUDA) every bucket; returns the averaged gradients by index. Throws
  // EngineError when a gradient never came.
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
  // Packs bucket `b` into this rank's slot (unless sent as it is), sends it and averages the ranks'
  // into `l.result`, on the side stream.
  void exchange(std::size_t b, Launched& l);
  void average(Launched& launched) const;  // after the sum: divide, or cast back
  bool copy_engine() const { return transport_ == GradientTransport::kCopyEngine && communicator_->world_size() > 1; }
  bool symmetric() const {
    return transport_ == GradientTransport::kSymmetricMemory && communicator_->world_size() > 1;
  }
  // The one-GPU baseline (Communicator::solo): nothing to average. A world of one made otherwise
  // (--nproc 1, the one-GPU tests of the captured collectives) still runs the collectives.
  bool alone() const { return communicator_->is_solo(); }
  // Where bucket `b`'s averages go in its joined range's buffer (allocated at the range's first
  // launch, like `grad`), or an undefined tensor: the bucket is not consecutive gradients of one range.
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
