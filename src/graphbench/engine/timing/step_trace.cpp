#include "graphbench/engine/timing/step_trace.h"

#include "graphbench/engine/timing/nvtx_range.h"
#include "graphbench/engine/timing/step_timer.h"

#include <cstdlib>
#include <filesystem>
#include <set>
#include <system_error>

#if defined(GRAPHBENCH_WITH_CUDA) && __has_include(<torch/csrc/autograd/profiler_kineto.h>) && \
    __has_include(<kineto/ActivityType.h>)
#include <torch/version.h>
#if TORCH_VERSION_MAJOR >= 2
#define GRAPHBENCH_HAVE_STEP_TRACE 1
#include <ATen/record_function.h>
#include <kineto/ActivityType.h>
#include <torch/csrc/autograd/profiler_kineto.h>
#endif
#endif

namespace graphbench {

#ifdef GRAPHBENCH_HAVE_STEP_TRACE

namespace {

namespace prof = torch::autograd::profiler;

// CUPTI at times loses a session's device records (profile_kernels meets it too): a trace without
// a single kernel, copy or memset is taken again.
constexpr int kTraceAttempts = 3;

bool has_device_activity(const prof::ProfilerResult& result) {
  for (const prof::KinetoEvent& e : result.events()) {
    const auto type = static_cast<libkineto::ActivityType>(e.activityType());
    if (type == libkineto::ActivityType::CONCURRENT_KERNEL || type == libkineto::ActivityType::GPU_MEMCPY ||
        type == libkineto::ActivityType::GPU_MEMSET) {
      return true;
    }
  }
  return false;
}

std::unique_ptr<prof::ProfilerResult> traced_steps(const std::function<void()>& step, int steps) {
  using torch::profiler::impl::ActivityType;
  using torch::profiler::impl::ProfilerConfig;
  using torch::profiler::impl::ProfilerState;
  const ProfilerConfig config(ProfilerState::KINETO);
  const std::set<ActivityType> activities = {ActivityType::CPU, ActivityType::CUDA};
  synchronize_device(true);
  prof::prepareProfiler(config, activities);
  prof::enableProfiler(config, activities);
  try {
    for (int i = 1; i <= steps; ++i) {
      const std::string name = "graphbench step " + std::to_string(i);
      const NvtxRange range(name);
      RECORD_USER_SCOPE(name.c_str());
      step();
    }
    synchronize_device(true);
  } catch (...) {
    (void)prof::disableProfiler();
    throw;
  }
  return prof::disableProfiler();
}

}  // namespace

bool step_tracer_available(bool cuda) { return cuda; }

std::string trace_steps(const std::function<void()>& step, int untraced, int steps, bool cuda, const std::string& path) {
  if (!cuda) return "the steps run on the CPU";
  if (steps <= 0) return "no steps to trace";
  setenv("TEARDOWN_CUPTI", "1", /*overwrite=*/0);  // as profile_kernels: no CUPTI left attached afterwards
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

bool step_tracer_available(bool) { return false; }

std::string trace_steps(const std::function<void()>&, int, int, bool, const std::string&) {
  return "this graphbench has no step tracer (it needs a CUDA build against LibTorch 2.x)";
}

#endif

}  // namespace graphbench
