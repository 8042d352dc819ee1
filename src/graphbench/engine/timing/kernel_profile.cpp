#include "graphbench/engine/timing/kernel_profile.h"

#include "graphbench/core/stats/interval_union.h"
#include "graphbench/engine/timing/step_timer.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

#if defined(GRAPHBENCH_WITH_CUDA) && __has_include(<torch/csrc/autograd/profiler_kineto.h>) && \
    __has_include(<kineto/ActivityType.h>)
#include <torch/version.h>
#if TORCH_VERSION_MAJOR >= 2
#define GRAPHBENCH_HAVE_KINETO 1
#include <kineto/ActivityType.h>
#include <torch/csrc/autograd/profiler_kineto.h>
#endif
#endif

namespace graphbench {

#ifdef GRAPHBENCH_HAVE_KINETO

namespace {

namespace prof = torch::autograd::profiler;
using torch::profiler::impl::ActivityType;
using torch::profiler::impl::ProfilerConfig;
using torch::profiler::impl::ProfilerState;

constexpr std::size_t kKernelsKept = 8;

std::uint8_t activity(libkineto::ActivityType type) { return static_cast<std::uint8_t>(type); }

struct Tally {
  double count = 0.0;
  double ns = 0.0;
};

KernelProfile summarize_events(const prof::ProfilerResult& result, int steps) {
  std::map<std::string, Tally> kernels;
  double kernel_count = 0.0;
  double copy_count = 0.0;
  double summed_ns = 0.0;
  // (start, duration) in ns of every kernel, copy and memset: overlapping work counts once. The
  // starts are nanoseconds since the epoch, beyond a double's exact integers: taken relative to
  // the first before they become doubles.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  for (const prof::KinetoEvent& e : result.events()) {
    const std::uint8_t type = e.activityType();
    const bool kernel = type == activity(libkineto::ActivityType::CONCURRENT_KERNEL);
    const bool copy = type == activity(libkineto::ActivityType::GPU_MEMCPY) ||
                      type == activity(libkineto::ActivityType::GPU_MEMSET);
    if (!kernel && !copy) continue;  // host-side events (the CUDA runtime calls) and annotations
    const double ns = static_cast<double>(e.durationNs());
    summed_ns += ns;
    spans.emplace_back(e.startNs(), e.durationNs());
    if (copy) {
      copy_count += 1.0;
      continue;
    }
    kernel_count += 1.0;
    Tally& t = kernels[e.name()];
    t.count += 1.0;
    t.ns += ns;
  }
  const double n = static_cast<double>(steps);
  KernelProfile profile;
  profile.steps = steps;
  profile.kernels_per_step = kernel_count / n;
  profile.copies_per_step = copy_count / n;
  // The union: overlapping work counted once; the sum beside it (over the union: the concurrency).
  std::uint64_t first = 0;
  for (std::size_t i = 0; i < spans.size(); ++i) first = i == 0 ? spans[i].first : std::min(first, spans[i].first);
  std::vector<std::pair<double, double>> busy;
  for (const auto& [start, duration] : spans) {
    const double from = static_cast<double>(start - first);
    busy.emplace_back(from, from + static_cast<double>(duration));
  }
  profile.busy_us_per_step = stats::union_length(std::move(busy)) / 1000.0 / n;
  profile.summed_us_per_step = summed_ns / 1000.0 / n;
  for (const auto& [name, t] : kernels) profile.kernels.push_back({name, t.count / n, t.ns / 1000.0 / n});
  std::sort(profile.kernels.begin(), profile.kernels.end(),
            [](const KernelStat& a, const KernelStat& b) { return a.us_per_step > b.us_per_step; });
  if (profile.kernels.size() > kKernelsKept) profile.kernels.resize(kKernelsKept);
  return profile;
}

}  // namespace

bool kernel_profiler_available(bool cuda) { return cuda; }

std::optional<KernelProfile> profile_kernels(const std::function<void()>& step, int steps, bool cuda) {
  if (!cuda || steps <= 0) return std::nullopt;
  // Kineto leaves CUPTI attached after a trace unless TEARDOWN_CUPTI=1, and an attached CUPTI slows
  // every later launch: the cases timed after this one would pay for it. A setting of the user's
  // own is kept.
  setenv("TEARDOWN_CUPTI", "1", /*overwrite=*/0);
  const ProfilerConfig config(ProfilerState::KINETO);
  const std::set<ActivityType> activities = {ActivityType::CUDA};
  synchronize_device(true);
  prof::prepareProfiler(config, activities);
  prof::enableProfiler(config, activities);
  try {
    for (int i = 0; i < steps; ++i) step();
    synchronize_device(true);
  } catch (...) {
    (void)prof::disableProfiler();
    throw;
  }
  const std::unique_ptr<prof::ProfilerResult> result = prof::disableProfiler();
  return summarize_events(*result, steps);
}

#else  // no Kineto with CUDA in this build

bool kernel_profiler_available(bool) { return false; }

std::optional<KernelProfile> profile_kernels(const std::function<void()>&, int, bool) { return std::nullopt; }

#endif

}  // namespace graphbench
