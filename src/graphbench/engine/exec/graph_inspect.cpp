#include "graphbench/engine/exec/graph_inspect.h"

#ifdef GRAPHBENCH_WITH_CUDA

#include "graphbench/engine/exec/shared_graph_pool.h"

#include <c10/cuda/CUDACachingAllocator.h>
#include <cuda_runtime_api.h>

#include <vector>

namespace graphbench {

std::unique_ptr<at::cuda::CUDAGraph> make_inspectable_graph() {
#ifdef GRAPHBENCH_CAN_INSPECT_GRAPHS
  return std::make_unique<at::cuda::CUDAGraph>(/*keep_graph=*/true);
#else
  return std::make_unique<at::cuda::CUDAGraph>();
#endif
}

void instantiate_kept(at::cuda::CUDAGraph& graph) {
#ifdef GRAPHBENCH_CAN_INSPECT_GRAPHS
  graph.instantiate();
#else
  (void)graph;
#endif
}

namespace {

#ifdef GRAPHBENCH_CAN_INSPECT_GRAPHS
void count_nodes(at::cuda::CUDAGraph& graph, GraphFacts& facts) {
  cudaGraph_t raw = graph.raw_cuda_graph();
  std::size_t count = 0;
  if (cudaGraphGetNodes(raw, nullptr, &count) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  std::vector<cudaGraphNode_t> nodes(count);
  if (count > 0 && cudaGraphGetNodes(raw, nodes.data(), &count) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  std::int64_t kernels = 0;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type{};
    if (cudaGraphNodeGetType(node, &type) != cudaSuccess) {
      (void)cudaGetLastError();
      return;
    }
    if (type == cudaGraphNodeTypeKernel) ++kernels;
  }
  facts.nodes = static_cast<std::int64_t>(count);
  facts.kernel_nodes = kernels;
}

void measure_pool(GraphPoolId pool, c10::DeviceIndex device, GraphFacts& facts) {
  const auto snapshot = c10::cuda::CUDACachingAllocator::snapshot(pool, /*include_traces=*/false);
  std::int64_t reserved = 0;
  std::int64_t allocated = 0;
  for (const auto& segment : snapshot.segments) {
    if (segment.device != device || segment.owner_private_pool_id != pool) continue;
    reserved += static_cast<std::int64_t>(segment.total_size);
    allocated += static_cast<std::int64_t>(segment.allocated_size);
  }
  facts.pool_reserved_bytes = reserved;
  facts.pool_allocated_bytes = allocated;
}
#endif

}  // namespace

GraphFacts inspect_graph(at::cuda::CUDAGraph& graph, GraphPoolId pool, c10::DeviceIndex device) {
  GraphFacts facts;
#ifdef GRAPHBENCH_CAN_INSPECT_GRAPHS
  count_nodes(graph, facts);
  try {
    measure_pool(pool, device, facts);
  } catch (const std::exception&) {
    // An allocator backend without snapshots (cudaMallocAsync): the pool's size stays unknown.
  }
#else
  (void)graph;
  (void)pool;
  (void)device;
#endif
  return facts;
}

std::optional<std::int64_t> pool_reserved_bytes(GraphPoolId pool, c10::DeviceIndex device) {
#ifdef GRAPHBENCH_CAN_INSPECT_GRAPHS
  GraphFacts facts;
  try {
    measure_pool(pool, device, facts);
  } catch (const std::exception&) {
  }
  return facts.pool_reserved_bytes;
#else
  (void)pool;
  (void)device;
  return std::nullopt;
#endif
}

GraphPoolId pool_for_capture() {
  if (const auto shared = SharedGraphPool::active()) {
    return {static_cast<decltype(GraphPoolId::first)>(shared->first),
            static_cast<decltype(GraphPoolId::second)>(shared->second)};
  }
  return at::cuda::graph_pool_handle();
}

}  // namespace graphbench

#endif
