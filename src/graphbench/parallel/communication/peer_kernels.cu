#include "graphbench/parallel/communication/peer_kernels.h"

#include <cuda_bf16.h>

#include <cstdio>

namespace graphbench::parallel {

namespace {

template <typename T>
struct Slots {
  const T* at[kMaxKernelRanks];
};

__device__ std::uint64_t now_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void take_flag(std::uint32_t* flag, int from_rank, std::uint64_t timeout_ms) {
  // Another GPU raises it (a system-scope store after its copy has landed): compare-and-swap at
  // system scope, so that the raise is seen and the flag is lowered in one step.
  const std::uint64_t start = now_ns();
  while (atomicCAS_system(flag, 1u, 0u) != 1u) {
    if (now_ns() - start > timeout_ms * 1000000ull) {
      printf("graphbench: copy-engine all-reduce: no word from rank %d within %llu ms\n", from_rank,
             static_cast<unsigned long long>(timeout_ms));
      __trap();
    }
    __nanosleep(200);
  }
  __threadfence_system();  // what the raise ordered before it is visible to the work after this
}

// Scalar loop: buckets whose pointers or length do not allow the vector form below.
__global__ void average_float(Slots<float> slots, int world, std::int64_t n, float scale, float* out) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    float sum = slots.at[0][i];
    for (int r = 1; r < world; ++r) sum = __fadd_rn(sum, slots.at[r][i]);  // no contraction into an FMA
    out[i] = __fmul_rn(sum, scale);
  }
}

__device__ float4 add_rn(float4 a, float4 b) {
  return make_float4(__fadd_rn(a.x, b.x), __fadd_rn(a.y, b.y), __fadd_rn(a.z, b.z), __fadd_rn(a.w, b.w));
}

// The same sums, four floats per load: a bucket of 8 MiB averaged in one pass at memory speed.
__global__ void average_float4(Slots<float4> slots, int world, std::int64_t n4, float scale, float4* out) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n4;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    float4 sum = slots.at[0][i];
    for (int r = 1; r < world; ++r) sum = add_rn(sum, slots.at[r][i]);
    out[i] = make_float4(__fmul_rn(sum.x, scale), __fmul_rn(sum.y, scale), __fmul_rn(sum.z, scale),
                         __fmul_rn(sum.w, scale));
  }
}

__global__ void sum_bfloat16_to_float(Slots<__nv_bfloat16> slots, int world, std::int64_t n, float* out) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    __nv_bfloat16 sum = slots.at[0][i];
    for (int r = 1; r < world; ++r) {
      sum = __float2bfloat16_rn(__fadd_rn(__bfloat162float(sum), __bfloat162float(slots.at[r][i])));
    }
    out[i] = __bfloat162float(sum);
  }
}

// A few looping blocks per multiprocessor: a grid of a block per element would take the multiprocessors
// from backward's products (on two H100s an 8 MiB average: 39 us alone, 82 us beside one; ac06bc8).
unsigned blocks_for(std::int64_t n, unsigned threads) {
  int device = 0;
  int multiprocessors = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
    (void)cudaGetLastError();
  }
  const std::int64_t wanted = (n + threads - 1) / threads;
  const std::int64_t cap = multiprocessors > 0 ? 4 * static_cast<std::int64_t>(multiprocessors) : 65535;
  return static_cast<unsigned>(wanted < 1 ? 1 : (wanted > cap ? cap : wanted));
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

cudaError_t launch_take_flag(std::uint32_t* flag, int from_rank, std::uint64_t timeout_ms, cudaStream_t stream) {
  take_flag<<<1, 1, 0, stream>>>(flag, from_rank, timeout_ms);
  return cudaGetLastError();
}

cudaError_t launch_average_float(const float* const* slots, int world, std::int64_t n, float scale, float* out,
                                 cudaStream_t stream) {
  if (world < 1 || world > kMaxKernelRanks) return cudaErrorInvalidValue;
  constexpr unsigned kThreads = 256;
  bool vector = n % 4 == 0 && aligned16(out);
  for (int r = 0; r < world; ++r) vector = vector && aligned16(slots[r]);
  if (vector) {
    Slots<float4> s{};
    for (int r = 0; r < world; ++r) s.at[r] = reinterpret_cast<const float4*>(slots[r]);
    average_float4<<<blocks_for(n / 4, kThreads), kThreads, 0, stream>>>(s, world, n / 4, scale,
                                                                         reinterpret_cast<float4*>(out));
    return cudaGetLastError();
  }
  Slots<float> s{};
  for (int r = 0; r < world; ++r) s.at[r] = slots[r];
  average_float<<<blocks_for(n, kThreads), kThreads, 0, stream>>>(s, world, n, scale, out);
  return cudaGetLastError();
}

cudaError_t launch_sum_bfloat16_to_float(const std::uint16_t* const* slots, int world, std::int64_t n, float* out,
                                         cudaStream_t stream) {
  if (world < 1 || world > kMaxKernelRanks) return cudaErrorInvalidValue;
  Slots<__nv_bfloat16> s{};
  for (int r = 0; r < world; ++r) s.at[r] = reinterpret_cast<const __nv_bfloat16*>(slots[r]);
  constexpr unsigned kThreads = 256;
  sum_bfloat16_to_float<<<blocks_for(n, kThreads), kThreads, 0, stream>>>(s, world, n, out);
  return cudaGetLastError();
}

}  // namespace graphbench::parallel
