// Graphs that share one memory pool, as LLM servers keep their graphs of every batch size: while a
// SharedGraphPool is alive, every graph this thread captures (the engine's and the reference
// variants') allocates from that one pool instead of a private pool of its own. Captured largest
// first, a smaller graph reuses the blocks a larger one freed, so keeping them all costs about the
// largest one. The header is CUDA-free; in a build without CUDA the pool is nothing.
#pragma once

#include "graphbench/core/base/non_copyable.h"

#include <cstdint>
#include <optional>

namespace graphbench {

class SharedGraphPool : NonCopyable {
 public:
  SharedGraphPool();
  ~SharedGraphPool();

  // What the pool has reserved on the current device now; nullopt where it cannot be read.
  std::optional<std::int64_t> reserved_bytes() const;

  struct Id {
    unsigned long long first = 0;
    unsigned long long second = 0;
  };
  // The pool the graphs of this thread capture into now, if one is alive.
  static std::optional<Id> active();

 private:
  Id id_;
  std::optional<Id> previous_;
};

}  // namespace graphbench
