// Kernels and device time of a few steps, from LibTorch's profiler (Kineto, CUDA activities): how
// many kernels a step launches (kernels inside a graph replay are reported one by one), how many
// device copies and memsets, and how long the device was busy with them. Run outside the timed
// samples; where this build has no such profiler (no CUDA, LibTorch 1.x) there is no profile.
// See docs/measuring.md (kernels and the floor).
#pragma once

#include "graphbench/core/record/result_record.h"

#include <functional>
#include <optional>

namespace graphbench {

// True when kernels can be profiled here: a CUDA build with LibTorch 2.x, and `cuda`.
bool kernel_profiler_available(bool cuda);

// Runs `step` `steps` times under the profiler, the device synchronised before and after. nullopt
// when no profiler is available; busy_share is left for the caller (it needs the step time).
// Throws what the steps throw, the profiler stopped first.
std::optional<KernelProfile> profile_kernels(const std::function<void()>& step, int steps, bool cuda);

}  // namespace graphbench
