// A captured graph's kernels (from its nodes) and its pool's size (CUDA builds only).
#pragma once

#ifdef GRAPHBENCH_WITH_CUDA

#include "graphbench/core/record/graph_facts.h"

#include <ATen/cuda/CUDAGraph.h>
#include <torch/version.h>

#include <cstdint>
#include <optional>

// LibTorch 2.11 (the GPU machine's) and later: CUDAGraph(keep_graph) keeps the graph after capture
// for raw_cuda_graph(), and the caching allocator's snapshot names each segment's pool.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 11)
#define GRAPHBENCH_CAN_INSPECT_GRAPHS 1
#endif

namespace graphbench {

using GraphPoolId = decltype(at::cuda::graph_pool_handle());

// A CUDAGraph that keeps its graph after capture where LibTorch can (then instantiate_kept).
std::unique_ptr<at::cuda::CUDAGraph> make_inspectable_graph();
// capture_end's instantiation, for a graph made by make_inspectable_graph (a no-op otherwise).
void instantiate_kept(at::cuda::CUDAGraph& graph);

// Kernel and node counts (where kept) and `pool`'s reserved and allocated bytes on `device`.
GraphFacts inspect_graph(at::cuda::CUDAGraph& graph, GraphPoolId pool, c10::DeviceIndex device);

// The reserved bytes of `pool` on `device` (nullopt where the allocator cannot tell).
std::optional<std::int64_t> pool_reserved_bytes(GraphPoolId pool, c10::DeviceIndex device);

// The thread's SharedGraphPool if one is alive, else a new private pool.
GraphPoolId pool_for_capture();

}  // namespace graphbench

#endif
