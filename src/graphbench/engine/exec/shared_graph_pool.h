// Graphs sharing one pool, as LLM servers keep theirs: while alive, every graph this thread captures
// allocates from it; captured largest first, all cost about the largest. Nothing without CUDA.
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
