// The kernels that set conditional nodes' conditions from device values (nvcc; CUDA 12.4 and later).
#pragma once

#ifdef GRAPHBENCH_WITH_CUDA
#include <cuda_runtime_api.h>

#if CUDART_VERSION >= 12040
#define GRAPHBENCH_HAS_CONDITIONAL_NODES 1

namespace graphbench {

// `compare`: 0 >, 1 >=, 2 <, 3 <= (ConditionalGraph::Compare): whether `value compare than` holds.

// A one-thread kernel node after `dependencies`: active = (first ? 1 : *active) && !(*value compare
// than), and `handle` set to it (device memory outliving the graph).
cudaError_t add_exit_condition_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                    size_t count, cudaGraphConditionalHandle handle, const float* value, int* active,
                                    int compare, float than, bool first);

// A one-thread kernel node after `dependencies` that sets `handle` to (*value compare than).
cudaError_t add_branch_condition_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                      size_t count, cudaGraphConditionalHandle handle, const float* value, int compare,
                                      float than);

}  // namespace graphbench

#endif
#endif
