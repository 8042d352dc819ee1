// The kernels of the copy-engine all-reduce (peer_exchange.h), compiled by nvcc on their own.
//
// Waiting for a flag that another GPU raises: a stream memory operation (cuStreamWaitValue32) would
// wait in the stream's hardware queue, which streams share, so work of other streams queued behind
// it would wait too (the backward pass, or on a GPU shared by two ranks the very copy that raises
// the flag). A kernel of one thread waits on a multiprocessor instead and leaves the queues alone.
//
// Averaging the ranks' buckets: one pass that sums them in rank order and scales, where ATen would
// take a pass to add and another to divide (or to cast), at the end of the step, where it shows.
#pragma once

#ifdef GRAPHBENCH_WITH_CUDA
#include <cuda_runtime_api.h>

#include <cstdint>

namespace graphbench::parallel {

// At most this many ranks' buckets are summed by the kernel (more: ATen's ops, peer_exchange.cpp).
constexpr int kMaxKernelRanks = 8;

// On `stream`: waits until *flag (device memory of this GPU) is 1, then sets it back to 0. After
// `timeout_ms` without it (rank `from_rank` gone, or stuck), prints why and traps: the GPU's work
// fails, where it would otherwise wait for ever.
cudaError_t launch_take_flag(std::uint32_t* flag, int from_rank, std::uint64_t timeout_ms, cudaStream_t stream);

// On `stream`: out[i] = (slots[0][i] + slots[1][i] + ... + slots[world-1][i]) * scale, the sum in
// float32 and in rank order, for i < n (float32 buckets: what ATen's add, add_ and mul_ give).
cudaError_t launch_average_float(const float* const* slots, int world, std::int64_t n, float scale, float* out,
                                 cudaStream_t stream);

// On `stream`: the same for bfloat16 buckets (raw bits), each addition rounded to bfloat16 as
// ATen's bfloat16 add does, the sum widened to float32 into `out` (no scale: the buckets were
// divided before they were sent).
cudaError_t launch_sum_bfloat16_to_float(const std::uint16_t* const* slots, int world, std::int64_t n, float* out,
                                         cudaStream_t stream);

}  // namespace graphbench::parallel
#endif
