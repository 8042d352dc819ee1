// Kernels and device time of a few steps, from LibTorch's profiler (Kineto): kernels per step (a
// replay's one by one), copies and memsets, and the device's busy time; outside the timed samples,
// and absent where there is no such profiler (docs/measuring.md).
#pragma once

#include "graphbench/core/record/result_record.h"

#include <functional>
#include <optional>

namespace graphbench {

// True when kernels can be profiled, and steps traced (step_trace.h), here: a CUDA build with
// LibTorch 2.x, and `cuda`.
bool kernel_profiler_available(bool cuda);

// Runs `step` `steps` times under the profiler (nullopt without one; busy_share left to the caller);
// throws what the steps throw, the profiler stopped first.
std::optional<KernelProfile> profile_kernels(const std::function<void()>& step, int steps, bool cuda);

}  // namespace graphbench
