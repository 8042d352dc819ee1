// Device memory as LibTorch's CUDA caching allocator counts it, around a block of timed steps: its
// peaks are reset before the block and read after it (both outside the timed interval). Without a
// CUDA device there is nothing to count: end() gives nullopt, never zeros.
// See docs/measuring.md (memory).
#pragma once

#include "graphbench/core/sampling/sampler.h"

#include <optional>

namespace graphbench {

class MemoryProbe {
 public:
  explicit MemoryProbe(bool cuda);
  // Resets the allocator's peak statistics of the current device and notes what is allocated now.
  void begin();
  // The peaks since begin().
  std::optional<MemoryPeak> end() const;

 private:
  bool cuda_ = false;
  std::int64_t allocated_at_begin_ = 0;
};

}  // namespace graphbench
