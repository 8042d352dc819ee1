// Evicts the device's L2 cache between timed steps (the cold-L2 method, --l2 cold): every flush
// writes a device buffer twice the size of the L2 cache, as nvbench's cold measurements do, so
// the next step finds none of its data in L2 and reads it from device memory.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>

namespace graphbench {

class L2Flusher {
 public:
  // Allocates the buffer on the current CUDA device; EngineError in a build without CUDA.
  L2Flusher();
  // Writes the buffer on the current stream and waits until the write has completed, so that what
  // is queued next starts on an idle GPU (the cold-L2 method: no step hides behind the flush).
  void flush();
  std::int64_t bytes() const { return buffer_.numel(); }

 private:
  at::Tensor buffer_;
};

}  // namespace graphbench
