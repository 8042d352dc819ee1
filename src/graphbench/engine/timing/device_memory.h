// Device memory as the caching allocator counts it around a block of timed steps (peaks reset before,
// read after, both off the clock; docs/measuring.md). Without CUDA, end() gives nullopt, never zeros.
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
