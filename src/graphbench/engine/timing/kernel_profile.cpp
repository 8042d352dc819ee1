#include "graphbench/engine/timing/kernel_profile.h"

#include "graphbench/core/stats/interval_union.h"
#include "graphbench/engine/timing/kineto.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace graphbench {

#ifdef GRAPHBENCH_HAVE_KINETO

namespace {

namespace prof = kineto::prof;

constexpr std::size_t kKernelsKept = 8;

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
    const bool kernel = kineto::is_kernel(e.activityType());
    const bool copy = kineto::is_copy(e.activityType());
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
  const auto result = kineto::profile({kineto::ActivityType::CUDA}, [&] {
    for (int i = 0; i < steps; ++i) step();
  });
  return summarize_events(*result, steps);
}

#else  // no Kineto with CUDA in this build

bool kernel_profiler_available(bool) { return false; }

std::optional<KernelProfile> profile_kernels(const std::function<void()>&, int, bool) { return std::nullopt; }

#endif

}  // namespace graphbench
