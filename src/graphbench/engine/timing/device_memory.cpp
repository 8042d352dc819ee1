#include "graphbench/engine/timing/device_memory.h"

#ifdef GRAPHBENCH_WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

namespace graphbench {

#ifdef GRAPHBENCH_WITH_CUDA
namespace {
constexpr std::size_t kAggregate = 0;  // StatType::AGGREGATE: small and large pools together
}  // namespace
#endif

MemoryProbe::MemoryProbe(bool cuda) {
#ifdef GRAPHBENCH_WITH_CUDA
  cuda_ = cuda;
#else
  (void)cuda;
#endif
}

void MemoryProbe::begin() {
#ifdef GRAPHBENCH_WITH_CUDA
  if (!cuda_) return;
  const auto device = c10::cuda::current_device();
  c10::cuda::CUDACachingAllocator::resetPeakStats(device);
  allocated_at_begin_ = c10::cuda::CUDACachingAllocator::getDeviceStats(device).allocated_bytes[kAggregate].current;
#endif
}

std::optional<MemoryPeak> MemoryProbe::end() const {
#ifdef GRAPHBENCH_WITH_CUDA
  if (!cuda_) return std::nullopt;
  const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(c10::cuda::current_device());
  MemoryPeak peak;
  peak.peak_allocated = stats.allocated_bytes[kAggregate].peak;
  peak.peak_reserved = stats.reserved_bytes[kAggregate].peak;
  peak.above_start = peak.peak_allocated - allocated_at_begin_;
  return peak;
#else
  return std::nullopt;
#endif
}

}  // namespace graphbench
