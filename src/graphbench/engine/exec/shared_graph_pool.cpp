#include "graphbench/engine/exec/shared_graph_pool.h"

#include "graphbench/engine/exec/graph_inspect.h"

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

namespace graphbench {

namespace {
thread_local std::optional<SharedGraphPool::Id> active_pool;
}  // namespace

#ifdef GRAPHBENCH_WITH_CUDA

SharedGraphPool::SharedGraphPool() : previous_(active_pool) {
  const auto handle = at::cuda::graph_pool_handle();
  id_ = Id{static_cast<unsigned long long>(handle.first), static_cast<unsigned long long>(handle.second)};
  active_pool = id_;
}

std::optional<std::int64_t> SharedGraphPool::reserved_bytes() const {
  return pool_reserved_bytes({static_cast<decltype(GraphPoolId::first)>(id_.first),
                              static_cast<decltype(GraphPoolId::second)>(id_.second)},
                             c10::cuda::current_device());
}

#else

SharedGraphPool::SharedGraphPool() : previous_(active_pool) { active_pool = id_; }
std::optional<std::int64_t> SharedGraphPool::reserved_bytes() const { return std::nullopt; }

#endif

SharedGraphPool::~SharedGraphPool() { active_pool = previous_; }

std::optional<SharedGraphPool::Id> SharedGraphPool::active() { return active_pool; }

}  // namespace graphbench
