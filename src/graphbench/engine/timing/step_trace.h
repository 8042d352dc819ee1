// A trace of a few steps in Chrome's trace format (opens in Perfetto, ui.perfetto.dev, or
// chrome://tracing), from LibTorch's profiler (Kineto): the host's ops and CUDA runtime calls
// (each cudaLaunchKernel, or one cudaGraphLaunch for a replay) and the device's kernels, copies and
// memsets, each step inside a range "graphbench step N". Where this build has no such profiler
// (no CUDA, LibTorch 1.x) there is no trace. See docs/measuring.md ("Traces").
#pragma once

#include <functional>
#include <string>

namespace graphbench {

// True when steps can be traced here: a CUDA build with LibTorch 2.x, and `cuda`.
bool step_tracer_available(bool cuda);

// Runs `step` `untraced` times, then `steps` times under the profiler, and writes the trace to
// `path` (whole or not at all: a temporary file renamed). Returns "" when written, otherwise why not.
// Throws what the steps throw, the profiler stopped first.
std::string trace_steps(const std::function<void()>& step, int untraced, int steps, bool cuda, const std::string& path);

}  // namespace graphbench
