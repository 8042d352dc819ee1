// The symmetric-memory all-reduce ("grad_transport": "symmetric-memory"): a block every rank of one
// host maps (LibTorch's symmetric memory) and LibTorch's two-shot all-reduce over it, ordered by
// signals in the block: no NCCL, no host, captured like any kernel. LibTorch 2.5+ with CUDA and NCCL.
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
  // Collective, outside any capture: allocates `bytes` and maps every peer's; DistributedError if not.
  SymmetricAllReduce(std::shared_ptr<Communicator> communicator, std::size_t bytes);
  ~SymmetricAllReduce();

  // `numel` elements of `dtype` at byte `offset` (a multiple of 16): where a bucket is packed.
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
