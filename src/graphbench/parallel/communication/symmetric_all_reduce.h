// The symmetric-memory all-reduce ("grad_transport": "symmetric-memory"): a block of device memory
// that every rank of one host maps into its own address space (LibTorch's symmetric memory), and
// LibTorch's two-shot all-reduce over it: each rank sums its share of a bucket, reading it from
// every peer's block, and writes the sum back into all of them; signals in the block keep the ranks
// in order, so it needs no NCCL and no host, and is captured in a CUDA graph like any kernel.
// LibTorch 2.5 or later built with CUDA and NCCL; the GPUs of one host.
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/parallel/communication/communicator.h"

#include <ATen/ATen.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace graphbench::parallel {

class SymmetricAllReduce : NonCopyable {
 public:
  // Collective over `communicator`'s ranks (every rank, in the same order, outside any capture):
  // allocates `bytes` on the communicator's device and maps every peer's. Throws DistributedError
  // where this build or these ranks cannot.
  SymmetricAllReduce(std::shared_ptr<Communicator> communicator, std::size_t bytes);
  ~SymmetricAllReduce();

  // `numel` elements of `dtype` at byte `offset` of the block (a multiple of 16): where a bucket
  // is packed before sum_().
  at::Tensor slot(std::size_t offset, std::int64_t numel, at::ScalarType dtype) const;
  // Sums `slot` (float32 or bfloat16, from slot()) over the ranks, in place, on the current stream.
  void sum_(at::Tensor& slot);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Why `device` cannot run the symmetric-memory all-reduce in this build, or "".
std::string symmetric_all_reduce_unavailable(at::Device device);

}  // namespace graphbench::parallel
