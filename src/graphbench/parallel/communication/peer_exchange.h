// The copy-engine all-reduce ("grad_transport": "copy-engine"): the ranks' buckets summed through
// copies into the other ranks' GPU memory, for the GPUs of one host joined by NVLink.
//
// Why: NCCL's all-reduce runs as kernels, and beside the backward pass's matrix products (which fill
// every multiprocessor) the two take turns, so a bucket reduced while backward runs is hardly
// hidden (docs/distributed.md). A copy between GPUs runs on a copy engine and takes no
// multiprocessor: it goes on beside the products. What is left on the multiprocessors is the sum of
// the received copies, a short elementwise kernel.
//
// Each rank allocates one block of device memory (cudaMalloc) and shares it: another process opens
// it through CUDA IPC, a rank of the same process (ranks as threads) uses the pointer with peer
// access enabled. The block holds a slot per rank (slot r: rank r's buckets, laid out alike on
// every rank) and a few 32-bit flags. A step, on the current stream:
//
//   begin_step()   waits until every peer has said that it read what this rank sent last step
//   send(b, data)  copies bucket b (packed in this rank's slot, or a gradient of its own) into
//                  this rank's slot on every peer, then raises the peer's flag "bucket b is there"
//   sum(b, data, out, scale)  waits for every peer's flag of bucket b (and lowers it), then out =
//                  the sum over the ranks of their bucket b (this rank's: `data`), in rank order
//                  (the same bits on every rank), times `scale`
//   end_step()     tells every peer that its slot here may be written again
//
// A flag is raised by a stream memory operation (cuStreamWriteValue32) and waited for by a kernel of
// one thread (peer_kernels.h): no host synchronisation, and all of it can be captured in a CUDA graph
// and replayed. Every rank must run the same steps with the same buckets. A peer that never comes
// fails the wait after the communicator's timeout (the kernel traps: the GPU's work fails, and with
// it the run).
//
// One GPU per rank: on a GPU shared by two ranks of one process a rank's wait, and the work queued
// behind it, may share a hardware queue with the other rank's copy that would end it, and both wait
// for ever. Processes sharing a GPU take turns on it (time slices): no hang, but slow waits.
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/parallel/communication/communicator.h"

#include <ATen/ATen.h>

#include <cstddef>
#include <memory>
#include <string>

namespace graphbench::parallel {

// Why the copy-engine all-reduce cannot run on `device` in this build ("" when it can, as far as a
// rank alone can tell: whether the GPUs reach each other is only known when they meet).
std::string peer_exchange_unavailable(at::Device device);

// Collective over `communicator`'s ranks: whether every rank is on one host, each on a GPU of its
// own that reaches every other rank's (peer access), so that a PeerExchange can open there. Every
// rank gets the same answer.
bool peer_exchange_possible(Communicator& communicator);

class PeerExchange : NonCopyable {
 public:
  // Collective over `communicator`'s ranks (every rank, in the same order, outside any capture):
  // allocates the block (slots of `slot_bytes`, flags for `buckets` buckets) on communicator's
  // device and maps every peer's. Throws DistributedError on every rank, naming the rank and why,
  // when any rank cannot (another host, GPUs without peer access, no CUDA).
  PeerExchange(std::shared_ptr<Communicator> communicator, std::size_t slot_bytes, std::size_t buckets);
  // Collective too: every rank unmaps its peers' blocks, then frees its own once all have (a rank
  // that does not come within the communicator's timeout leaves the block allocated).
  ~PeerExchange();

  // `numel` elements of `dtype` at byte `offset` of this rank's own slot: where bucket data is packed.
  at::Tensor own_slot(std::size_t offset, std::int64_t numel, at::ScalarType dtype) const;

  void begin_step();
  // `data`: this rank's bucket, contiguous on the device, left untouched until the step's end.
  void send(std::size_t bucket, std::size_t offset, const at::Tensor& data);
  // The sum is taken in `data`'s dtype (bfloat16: each addition rounded to it) and written, times
  // `scale`, into `out`: contiguous, `data`'s numel, of its dtype or float32, neither `data` nor in
  // a slot.
  void sum(std::size_t bucket, std::size_t offset, const at::Tensor& data, at::Tensor& out, double scale);
  void end_step();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace graphbench::parallel
