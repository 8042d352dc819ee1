#include "graphbench/parallel/peer_flags.h"

namespace graphbench::parallel {

namespace {

__global__ void take_flag(std::uint32_t* flag) {
  // Another GPU raises it (a system-scope store after its copy has landed): compare-and-swap at
  // system scope, so that the raise is seen and the flag is lowered in one step.
  while (atomicCAS_system(flag, 1u, 0u) != 1u) __nanosleep(200);
  __threadfence_system();  // what the raise ordered before it is visible to the work after this
}

}  // namespace

cudaError_t launch_take_flag(std::uint32_t* flag, cudaStream_t stream) {
  take_flag<<<1, 1, 0, stream>>>(flag);
  return cudaGetLastError();
}

}  // namespace graphbench::parallel
