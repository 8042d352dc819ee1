// The kernels of condition_kernels.h.
#include "graphbench/engine/exec/condition_kernels.h"

#ifdef GRAPHBENCH_HAS_CONDITIONAL_NODES

namespace graphbench {

namespace {

__device__ bool holds(float value, int compare, float than) {
  switch (compare) {
    case 0: return value > than;
    case 1: return value >= than;
    case 2: return value < than;
    default: return value <= than;
  }
}

__global__ void set_exit_condition(cudaGraphConditionalHandle handle, const float* value, int* active, int compare,
                                   float than, int first) {
  const int still = (first != 0 ? 1 : *active) != 0 && !holds(*value, compare, than);
  *active = still;
  cudaGraphSetConditional(handle, still ? 1u : 0u);
}

__global__ void set_branch_condition(cudaGraphConditionalHandle handle, const float* value, int compare, float than) {
  cudaGraphSetConditional(handle, holds(*value, compare, than) ? 1u : 0u);
}

cudaError_t add_one_thread_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                size_t count, void* kernel, void** args) {
  cudaKernelNodeParams params = {};
  params.func = kernel;
  params.gridDim = dim3(1, 1, 1);
  params.blockDim = dim3(1, 1, 1);
  params.sharedMemBytes = 0;
  params.kernelParams = args;
  params.extra = nullptr;
  return cudaGraphAddKernelNode(node, graph, dependencies, count, &params);  // copies the arguments
}

}  // namespace

cudaError_t add_exit_condition_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                    size_t count, cudaGraphConditionalHandle handle, const float* value, int* active,
                                    int compare, float than, bool first) {
  int first_flag = first ? 1 : 0;
  void* args[] = {&handle, &value, &active, &compare, &than, &first_flag};
  return add_one_thread_node(node, graph, dependencies, count, reinterpret_cast<void*>(set_exit_condition), args);
}

cudaError_t add_branch_condition_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                      size_t count, cudaGraphConditionalHandle handle, const float* value, int compare,
                                      float than) {
  void* args[] = {&handle, &value, &compare, &than};
  return add_one_thread_node(node, graph, dependencies, count, reinterpret_cast<void*>(set_branch_condition), args);
}

}  // namespace graphbench

#endif
