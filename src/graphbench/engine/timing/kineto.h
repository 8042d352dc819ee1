// LibTorch's Kineto profiler where this build has it (CUDA, LibTorch 2.x: GRAPHBENCH_HAVE_KINETO):
// what the kernel profile and the step trace share. Include from .cpp files only.
#pragma once

#if defined(GRAPHBENCH_WITH_CUDA) && __has_include(<torch/csrc/autograd/profiler_kineto.h>) && \
    __has_include(<kineto/ActivityType.h>)
#include <torch/version.h>
#if TORCH_VERSION_MAJOR >= 2
#define GRAPHBENCH_HAVE_KINETO 1
#include "graphbench/engine/timing/step_timer.h"

#include <kineto/ActivityType.h>
#include <torch/csrc/autograd/profiler_kineto.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <set>

namespace graphbench::kineto {

namespace prof = torch::autograd::profiler;
using torch::profiler::impl::ActivityType;

inline bool is_kernel(std::uint8_t type) {
  return type == static_cast<std::uint8_t>(libkineto::ActivityType::CONCURRENT_KERNEL);
}
inline bool is_copy(std::uint8_t type) {  // a device copy or memset
  return type == static_cast<std::uint8_t>(libkineto::ActivityType::GPU_MEMCPY) ||
         type == static_cast<std::uint8_t>(libkineto::ActivityType::GPU_MEMSET);
}

// Runs `steps` under the profiler, the device synchronised before and after; the profiler stopped
// first where a step throws. Kineto leaves CUPTI attached unless TEARDOWN_CUPTI=1, and an attached
// CUPTI slows every later launch (the cases timed after this one); a setting of the user's is kept.
inline std::unique_ptr<prof::ProfilerResult> profile(const std::set<ActivityType>& activities,
                                                     const std::function<void()>& steps) {
  setenv("TEARDOWN_CUPTI", "1", /*overwrite=*/0);
  const torch::profiler::impl::ProfilerConfig config(torch::profiler::impl::ProfilerState::KINETO);
  synchronize_device(true);
  prof::prepareProfiler(config, activities);
  prof::enableProfiler(config, activities);
  try {
    steps();
    synchronize_device(true);
  } catch (...) {
    (void)prof::disableProfiler();
    throw;
  }
  return prof::disableProfiler();
}

}  // namespace graphbench::kineto

#endif
#endif
