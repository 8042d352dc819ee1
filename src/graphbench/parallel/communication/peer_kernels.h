// The copy-engine all-reduce's kernels (peer_exchange.h), compiled by nvcc. A flag is awaited by a
// one-thread kernel, not cuStreamWaitValue32: that waits in a hardware queue streams share, holding
// up other streams' work (even the copy that raises the flag). The average is one pass summing in
// rank order and scaling, where ATen would take two at the end of the step.
#pragma once

#ifdef GRAPHBENCH_WITH_CUDA
#include <cuda_runtime_api.h>

#include <cstdint>

namespace graphbench::parallel {

// At most this many ranks' buckets are summed by the kernel (more: ATen's ops, peer_exchange.cpp).
constexpr int kMaxKernelRanks = 8;

// On `stream`: waits until *flag (this GPU's) is 1, then resets it; after `timeout_ms` prints why and
// traps (the GPU's work fails rather than waiting for ever).
cudaError_t launch_take_flag(std::uint32_t* flag, int from_rank, std::uint64_t timeout_ms, cudaStream_t stream);

// On `stream`: out[i] = scale * the sum over slots in rank order, in float32 (as ATen's ops give).
cudaError_t launch_average_float(const float* const* slots, int world, std::int64_t n, float scale, float* out,
                                 cudaStream_t stream);

// The same for bfloat16 bits, each addition rounded to bfloat16, widened to float32 (no scale).
cudaError_t launch_sum_bfloat16_to_float(const std::uint16_t* const* slots, int world, std::int64_t n, float* out,
                                         cudaStream_t stream);

}  // namespace graphbench::parallel
#endif
