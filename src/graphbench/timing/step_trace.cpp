#include "graphbench/timing/step_trace.h"

#include "graphbench/timing/nvtx_range.h"
#include "graphbench/timing/step_timer.h"

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
#include <torch/csrc/autograd/profiler_kineto.h>
#endif
#endif

namespace graphbench {

#ifdef GRAPHBENCH_HAVE_STEP_TRACE

bool step_tracer_available(bool cuda) { return cuda; }

std::string trace_steps(const std::function<void()>& step, int untraced, int steps, bool cuda, const std::string& path) {
  namespace prof = torch::autograd::profiler;
  using torch::profiler::impl::ActivityType;
  using torch::profiler::impl::ProfilerConfig;
  using torch::profiler::impl::ProfilerState;
  if (!cuda) return "the steps run on the CPU";
  if (steps <= 0) return "no steps to trace";
  setenv("TEARDOWN_CUPTI", "1", /*overwrite=*/0);  // as profile_kernels: no CUPTI left attached afterwards
  for (int i = 0; i < untraced; ++i) step();
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
  const std::unique_ptr<prof::ProfilerResult> result = prof::disableProfiler();
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
