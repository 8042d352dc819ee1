#include "graphbench/engine/timing/step_trace.h"

#include "graphbench/engine/timing/kineto.h"
#include "graphbench/engine/timing/nvtx_range.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#ifdef GRAPHBENCH_HAVE_KINETO
#include <ATen/record_function.h>
#endif

namespace graphbench {

#ifdef GRAPHBENCH_HAVE_KINETO

namespace {

namespace prof = kineto::prof;

// CUPTI at times loses a session's device records: a trace without device work is taken again.
constexpr int kTraceAttempts = 3;

bool has_device_activity(const prof::ProfilerResult& result) {
  const auto& events = result.events();
  return std::any_of(events.begin(), events.end(), [](const prof::KinetoEvent& e) {
    return kineto::is_kernel(e.activityType()) || kineto::is_copy(e.activityType());
  });
}

std::unique_ptr<prof::ProfilerResult> traced_steps(const std::function<void()>& step, int steps) {
  return kineto::profile({kineto::ActivityType::CPU, kineto::ActivityType::CUDA}, [&] {
    for (int i = 1; i <= steps; ++i) {
      const std::string name = "graphbench step " + std::to_string(i);
      const NvtxRange range(name);
      RECORD_USER_SCOPE(name.c_str());
      step();
    }
  });
}

}  // namespace

std::string trace_steps(const std::function<void()>& step, int untraced, int steps, bool cuda, const std::string& path) {
  if (!cuda) return "the steps run on the CPU";
  if (steps <= 0) return "no steps to trace";
  for (int i = 0; i < untraced; ++i) step();
  std::unique_ptr<prof::ProfilerResult> result;
  for (int attempt = 0; attempt < kTraceAttempts; ++attempt) {
    result = traced_steps(step, steps);
    if (has_device_activity(*result)) break;
    result.reset();
  }
  if (!result) {
    return "the profiler recorded no device activity in " + std::to_string(kTraceAttempts) +
           " tries (CUPTI lost its records)";
  }
  const std::string temporary = path + ".tmp";
  result->save(temporary);
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    return "cannot write " + path + ": " + ec.message();
  }
  return "";
}

#else

std::string trace_steps(const std::function<void()>&, int, int, bool, const std::string&) {
  return "this graphbench has no step tracer (it needs a CUDA build against LibTorch 2.x)";
}

#endif

}  // namespace graphbench
