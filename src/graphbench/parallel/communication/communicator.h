// One rank's connection to the others: the rendezvous store and a c10d process group
// (ProcessGroupNCCL for CUDA tensors, ProcessGroupGloo for CPU tensors), behind an interface free
// of c10d headers. Every collective must be called by every rank of the world, in the same order.
//
// Every wait is bounded by the communicator's timeout: the rendezvous, each store read and each
// collective on Gloo (NCCL's watchdog applies it to eager collectives). What times out throws
// DistributedError naming what was waited for; a rank that dies leaves the others to time out, or
// to be ended by the launcher that watches them.
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/parallel/communication/node_layout.h"
#include "graphbench/parallel/communication/rank_env.h"

#include <ATen/ATen.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace graphbench::parallel {

// True when this build has a c10d backend for `device`'s type (NCCL for cuda, Gloo for cpu).
bool backend_available(at::Device device);
// "nccl", "gloo" or "none": what this build can use for `device`'s type.
std::string backend_name(at::Device device);

enum class IntReduce { kMin, kMax, kSum };

// A collective under way. wait() returns once it is done (Gloo: its worker thread finished; NCCL:
// nothing to wait for, it is queued on a stream already) and throws DistributedError as the
// blocking collectives do. Waiting a second time, or on a default-made one, does nothing.
class PendingCollective {
 public:
  PendingCollective() = default;
  explicit PendingCollective(std::function<void()> wait) : wait_(std::move(wait)) {}
  void wait() {
    if (!wait_) return;
    auto wait = std::move(wait_);
    wait_ = nullptr;
    wait();
  }

 private:
  std::function<void()> wait_;
};

class Communicator : NonCopyable {
 public:
  // Rendezvous: rank 0 hosts a TCPStore at env.master_addr:env.master_port (unless torchrun's
  // agent hosts it) and every rank waits until all env.world_size ranks have joined, at most
  // `timeout`. Then the process group for `device` (a CUDA device becomes this process's current
  // device). Throws DistributedError when the rendezvous times out, InputError when this build has
  // no backend for the device. The ranks then tell each other their nodes (node_layout()).
  static std::shared_ptr<Communicator> connect(const RankEnv& env, at::Device device, std::chrono::milliseconds timeout);

  ~Communicator();

  int rank() const;
  int world_size() const;
  // A world made by solo(): the one-GPU baseline, whose step averages nothing (gradient_buckets.h).
  bool is_solo() const;
  at::Device device() const;
  // On how many nodes (torchrun's, or hosts) the ranks are, as every rank told at connect(); one
  // node of one rank for a world made by solo().
  const NodeLayout& node_layout() const;
  // Whether every rank runs in a process of its own (not threads of one process, as tests start
  // ranks), as the ranks told at connect(): LibTorch's symmetric memory needs it.
  bool ranks_in_own_processes() const;
  const std::string& backend() const;  // "nccl" or "gloo"
  // The backend library's version where it tells ("2.27.5" for NCCL), else "".
  std::string backend_version() const;
  std::chrono::milliseconds timeout() const;
  // Whether all-reduces sum bfloat16 tensors: NCCL does; Gloo, as we build against it, does not.
  bool sums_bfloat16() const;

  // Sums `tensor` (contiguous, on device()) over the ranks, in place. On NCCL the collective runs on
  // the current stream (not NCCL's own), so that a CUDA graph captured on that stream contains it.
  void all_reduce_sum_(at::Tensor& tensor);
  // The same, returning before it is done: on Gloo the sum runs on the process group's threads
  // and `tensor` must not be touched until wait(); on NCCL it is all_reduce_sum_ (queued on the
  // current stream: the stream orders what follows).
  PendingCollective start_all_reduce_sum_(at::Tensor& tensor);
  // Whether the all-reduce can average as it sums (NCCL's ncclAvg, which scales each rank's
  // values by 1/N inside the collective's own kernel): then a gradient bucket needs no separate
  // division pass after it. Gloo has no average.
  bool averages_in_all_reduce() const;
  // Averages `tensor` over the ranks, in place, in one all-reduce, as start_all_reduce_sum_ sums.
  // Only where averages_in_all_reduce().
  PendingCollective start_all_reduce_average_(at::Tensor& tensor);
  // Every rank's `tensor` (contiguous, on device()) becomes `root`'s.
  void broadcast_(at::Tensor& tensor, int root = 0);
  // Elementwise min, max or sum of a few integers over the ranks, returned on the host (flags,
  // counts, checksums: anything every rank must agree on).
  std::vector<std::int64_t> all_reduce_ints(const std::vector<std::int64_t>& values, IntReduce op);
  // True on every rank when `flag` is true on any rank.
  bool any_rank(bool flag);
  void barrier();

  // Small strings through the rendezvous store (no device involved). Keys are this run's own.
  void store_set(const std::string& key, const std::string& value);
  std::string store_get(const std::string& key);  // waits up to timeout() for the key
  // The same, waiting up to `limit` while this rank idles (it counts as progress: see
  // progress_watchdog.h), e.g. while rank 0 alone measures something.
  std::string store_get(const std::string& key, std::chrono::milliseconds limit);
  // Every rank's `mine`, by rank, on rank 0 (an empty list on the others): timings, messages.
  std::vector<std::string> gather_to_rank0(const std::string& mine);
  // Every rank's `mine`, by rank, on every rank.
  std::vector<std::string> all_gather_strings(const std::string& mine);

  // Makes `name` a group of LibTorch's symmetric memory over these ranks, which rendezvous through
  // this run's store under that name (symmetric_all_reduce.h). Throws DistributedError where this
  // build has no symmetric memory.
  void add_symmetric_memory_group(const std::string& name) const;

  // A world of this rank alone, sharing the store (the one-GPU baseline measured inside an N-rank
  // run). Only the ranks that call it take part; `name` must be unique per call.
  std::shared_ptr<Communicator> solo(const std::string& name) const;

  // Ends the process group, waiting at most timeout(). With NCCL, destroy every CUDA graph that
  // captured its collectives first (pytorch/pytorch#115388: the communicator's destruction can
  // hang otherwise). Returns false when it did not finish in time.
  bool shutdown();

  struct Impl;
  explicit Communicator(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace graphbench::parallel
