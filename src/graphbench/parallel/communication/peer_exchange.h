// The copy-engine all-reduce ("grad_transport": "copy-engine") for the GPUs of one host: buckets
// summed through copies into the other ranks' memory. Why: NCCL's kernels take turns with
// backward's matrix products on the multiprocessors, so an overlapped all-reduce is hardly hidden
// (docs/distributed.md); a copy runs on a copy engine beside them, leaving only the short sum.
// Each rank shares one cudaMalloc block (CUDA IPC, or peer access for ranks as threads): a slot per
// rank and 32-bit flags. A step, on the current stream:
//   begin_step()   waits until every peer read what this rank sent last step
//   send(b, data)  copies bucket b into this rank's slot on every peer, then raises its flag there
//   sum(b, ...)    waits for (and lowers) every peer's flag of b; out = scale * the sum in rank order
//   end_step()     tells every peer its slot here may be written again
// Flags are raised by cuStreamWriteValue32 and awaited by one-thread kernels (peer_kernels.h): no
// host sync, so a step captures. A peer that never comes traps the wait after the timeout. One GPU
// per rank: two ranks of one process on one GPU may share a hardware queue and wait for ever.
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/parallel/communication/communicator.h"

#include <ATen/ATen.h>

#include <cstddef>
#include <memory>
#include <string>

namespace graphbench::parallel {

// Why the copy-engine all-reduce cannot run on `device` in this build ("": as far as one rank can tell).
std::string peer_exchange_unavailable(at::Device device);

// Collective: every rank on one host, each on its own GPU with peer access to every other's.
bool peer_exchange_possible(Communicator& communicator);

class PeerExchange : NonCopyable {
 public:
  // Collective, outside any capture: allocates the block (slots of `slot_bytes`, flags for `buckets`)
  // and maps every peer's; DistributedError on every rank, naming who cannot and why.
  PeerExchange(std::shared_ptr<Communicator> communicator, std::size_t slot_bytes, std::size_t buckets);
  // Collective: unmaps the peers' blocks, then frees its own once all have (or leaves it after the timeout).
  ~PeerExchange();

  // `numel` elements of `dtype` at byte `offset` of this rank's own slot: where bucket data is packed.
  at::Tensor own_slot(std::size_t offset, std::int64_t numel, at::ScalarType dtype) const;

  void begin_step();
  // `data`: this rank's bucket, contiguous on the device, left untouched until the step's end.
  void send(std::size_t bucket, std::size_t offset, const at::Tensor& data);
  // The sum in `data`'s dtype, times `scale`, into `out` (contiguous, `data`'s numel, its dtype or
  // float32, neither `data` nor in a slot).
  void sum(std::size_t bucket, std::size_t offset, const at::Tensor& data, at::Tensor& out, double scale);
  void end_step();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace graphbench::parallel
