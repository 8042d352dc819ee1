// For [cuda] tests of graph memory: the bytes each CUDA graph pool reserves on the current device,
// read from the caching allocator's snapshot, which names each segment's pool only from LibTorch
// 2.11 on (GRAPHBENCH_CAN_INSPECT_GRAPHS). Elsewhere GRAPHBENCH_REQUIRE_GRAPH_POOLS() skips.
#pragma once

#include "support/skip.h"

#ifdef GRAPHBENCH_WITH_CUDA
#include "graphbench/engine/exec/graph_inspect.h"

#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

#include <cstdint>
#include <map>
#include <utility>

namespace graphbench::testing {

// Reserved bytes by pool id; the default pool is left out.
using PoolBytes = std::map<std::pair<unsigned long long, unsigned long long>, std::int64_t>;

#ifdef GRAPHBENCH_CAN_INSPECT_GRAPHS
inline constexpr bool kCanReadGraphPools = true;

// After waiting for the device.
inline PoolBytes graph_pool_bytes() {
  c10::cuda::device_synchronize();
  const auto device = c10::cuda::current_device();
  const auto snapshot = c10::cuda::CUDACachingAllocator::snapshot(GraphPoolId{0, 0}, /*include_traces=*/false);
  PoolBytes pools;
  for (const auto& segment : snapshot.segments) {
    const auto id = segment.owner_private_pool_id;
    if (segment.device != device || (id.first == 0 && id.second == 0)) continue;
    pools[{id.first, id.second}] += static_cast<std::int64_t>(segment.total_size);
  }
  return pools;
}
#else
inline constexpr bool kCanReadGraphPools = false;
inline PoolBytes graph_pool_bytes() { return {}; }  // never called: the tests skip first
#endif

inline std::int64_t total_bytes(const PoolBytes& pools) {
  std::int64_t sum = 0;
  for (const auto& pool : pools) sum += pool.second;
  return sum;
}

// The pools in `after` that are not in `before`.
inline PoolBytes new_pools(const PoolBytes& before, const PoolBytes& after) {
  PoolBytes added;
  for (const auto& pool : after) {
    if (before.count(pool.first) == 0) added.insert(pool);
  }
  return added;
}

}  // namespace graphbench::testing

#define GRAPHBENCH_REQUIRE_GRAPH_POOLS()                                                                  \
  do {                                                                                                   \
    if (!graphbench::testing::kCanReadGraphPools)                                                        \
      GRAPHBENCH_SKIP("needs LibTorch 2.11 or later, whose allocator snapshot names each segment's pool"); \
  } while (0)
