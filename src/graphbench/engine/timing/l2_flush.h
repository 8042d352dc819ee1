// Evicts the L2 cache between timed steps (--l2 cold): each flush writes a buffer twice the L2's
// size, as nvbench's cold measurements do.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>

namespace graphbench {

class L2Flusher {
 public:
  // Allocates the buffer on the current CUDA device; EngineError in a build without CUDA.
  L2Flusher();
  // Writes the buffer and waits for it: the next step starts on an idle GPU.
  void flush();

 private:
  at::Tensor buffer_;
};

}  // namespace graphbench
