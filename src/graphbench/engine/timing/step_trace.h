// A trace of a few steps in Chrome's format (Perfetto) from LibTorch's profiler: host ops and CUDA
// runtime calls, device kernels, copies and memsets, each step in a range "graphbench step N"; none
// where there is no such profiler (kernel_profiler_available; docs/measuring.md, "Traces").
#pragma once

#include <functional>
#include <string>

namespace graphbench {

// Runs `step` `untraced` times, then `steps` traced, written whole to `path`; "" or why not. Throws
// what the steps throw, the profiler stopped first.
std::string trace_steps(const std::function<void()>& step, int untraced, int steps, bool cuda, const std::string& path);

}  // namespace graphbench
