// One rank's connection to the others: the rendezvous store and a c10d process group (NCCL for CUDA,
// Gloo for CPU tensors) behind an interface free of c10d headers. Every rank calls every collective,
// in the same order. Every wait is bounded by the timeout (NCCL's watchdog bounds eager collectives);
// what times out throws DistributedError naming what was waited for.
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

// A collective under way; wait() (once: later waits do nothing) returns when it is done (NCCL: queued
// on a stream already) and throws DistributedError as the blocking collectives do.
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
  // Rendezvous (rank 0 hosts the TCPStore unless torchrun's agent does; every rank waits for all, at
  // most `timeout`), then the process group for `device` (made current) and the ranks' node_layout().
  // DistributedError on a timeout, InputError where this build has no backend for the device.
  static std::shared_ptr<Communicator> connect(const RankEnv& env, at::Device device, std::chrono::milliseconds timeout);

  ~Communicator();

  int rank() const;
  int world_size() const;
  // A world made by solo(): the one-GPU baseline, whose step averages nothing (gradient_buckets.h).
  bool is_solo() const;
  at::Device device() const;
  // The ranks' nodes, as told at connect(); one node of one rank for solo().
  const NodeLayout& node_layout() const;
  // Every rank in a process of its own (not test threads): LibTorch's symmetric memory needs it.
  bool ranks_in_own_processes() const;
  const std::string& backend() const;  // "nccl" or "gloo"
  // The backend library's version where it tells ("2.27.5" for NCCL), else "".
  std::string backend_version() const;
  std::chrono::milliseconds timeout() const;
  // Whether all-reduces sum bfloat16 tensors: NCCL does; Gloo, as we build against it, does not.
  bool sums_bfloat16() const;

  // Sums `tensor` (contiguous, on device()) over the ranks in place; NCCL runs on the current stream,
  // so that a graph captured there contains it.
  void all_reduce_sum_(at::Tensor& tensor);
  // The same, returning before it is done (Gloo: leave `tensor` alone until wait()).
  PendingCollective start_all_reduce_sum_(at::Tensor& tensor);
  // NCCL's ncclAvg averages inside the collective's kernel (no division pass); Gloo has none.
  bool averages_in_all_reduce() const;
  // Averages `tensor` in place, as start_all_reduce_sum_ sums; only where averages_in_all_reduce().
  PendingCollective start_all_reduce_average_(at::Tensor& tensor);
  // Every rank's `tensor` (contiguous, on device()) becomes `root`'s.
  void broadcast_(at::Tensor& tensor, int root = 0);
  // Elementwise min, max or sum of a few integers over the ranks, on the host.
  std::vector<std::int64_t> all_reduce_ints(const std::vector<std::int64_t>& values, IntReduce op);
  // True on every rank when `flag` is true on any rank.
  bool any_rank(bool flag);
  void barrier();

  // Small strings through the rendezvous store (no device involved). Keys are this run's own.
  void store_set(const std::string& key, const std::string& value);
  std::string store_get(const std::string& key);  // waits up to timeout() for the key
  // The same, waiting up to `limit` while this rank idles (counted as progress: progress_watchdog.h).
  std::string store_get(const std::string& key, std::chrono::milliseconds limit);
  // Every rank's `mine`, by rank, on rank 0 (an empty list on the others): timings, messages.
  std::vector<std::string> gather_to_rank0(const std::string& mine);
  // Every rank's `mine`, by rank, on every rank.
  std::vector<std::string> all_gather_strings(const std::string& mine);

  // Makes `name` a group of LibTorch's symmetric memory over these ranks (symmetric_all_reduce.h);
  // DistributedError where this build has none.
  void add_symmetric_memory_group(const std::string& name) const;

  // A world of this rank alone sharing the store (the one-GPU baseline); `name` unique per call.
  std::shared_ptr<Communicator> solo(const std::string& name) const;

  // Ends the process group within timeout() (false if not). With NCCL, destroy the graphs that
  // captured its collectives first (pytorch/pytorch#115388: the destruction can hang otherwise).
  bool shutdown();

  struct Impl;
  explicit Communicator(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace graphbench::parallel
