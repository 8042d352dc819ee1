// What one captured CUDA graph is made of and what memory it keeps, as the executors report it
// and result records carry it. Fields are absent where the build cannot tell (no CUDA, or a
// LibTorch older than 2.11 for the kernel count).
#pragma once

#include <cstdint>
#include <optional>

namespace graphbench {

struct GraphFacts {
  std::optional<std::int64_t> kernel_nodes;          // kernels per replay, read from the graph itself
  std::optional<std::int64_t> nodes;                 // all its nodes (kernels, copies, memsets, ...)
  std::optional<std::int64_t> pool_reserved_bytes;   // its private memory pool, reserved
  std::optional<std::int64_t> pool_allocated_bytes;  // the part of the pool in use
};

}  // namespace graphbench
