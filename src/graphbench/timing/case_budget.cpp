#include "graphbench/timing/case_budget.h"

#include "graphbench/report/progress.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace graphbench {

double minimum_case_seconds(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling) {
  const double step_s = std::max(eager_step_s, 0.0);
  const double v = std::max(variants, 1);
  const double sample_s = std::max(step_s, sampling.min_sample_time_ms * 1e-3);
  const double validation_s = v * std::max(validation_steps, 1) * step_s;
  // Fewer where the settings ask for fewer (--min-samples 1, --warmup 0).
  const double rounds = std::clamp(sampling.min_samples, 1, kMinimumRounds);
  const double warm_up_s = sampling.warmup_steps > 0 ? step_s : 0.0;
  const double sampling_s = v * (warm_up_s + sample_s + rounds * sample_s);
  return step_s + validation_s + sampling_s;
}

double offered_max_time(double seconds) {
  if (!(seconds > 0)) return 1.0;
  if (seconds <= 60) return std::max(1.0, std::ceil(seconds));
  return std::ceil(seconds / 10.0) * 10.0;
}

std::string too_long_reason(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling) {
  const double need_s = minimum_case_seconds(eager_step_s, variants, validation_steps, sampling);
  // Sampling stops by what is left of the limit less the share kept for after it.
  const double limit_needed_s = need_s / (1.0 - kAfterSamplingShare);
  if (limit_needed_s <= sampling.max_time_s) return "";
  return fmt::format("skipped before it started: one eager step took {} on this device, so this case needs about {} "
                     "at the least (one validation run and {:g} sample(s) of each of its {} variant(s)), more than its "
                     "time limit of {} allows: --max-time {:g} gives it that time",
                     format_duration(eager_step_s), format_duration(need_s), static_cast<double>(std::clamp(sampling.min_samples, 1, kMinimumRounds)),
                     std::max(variants, 1),
                     format_duration(sampling.max_time_s), offered_max_time(kOfferedRoom * limit_needed_s));
}

CaseTimeRange expected_case_seconds(double eager_step_s, int variants, int validation_steps,
                                    const SamplingSpec& sampling) {
  const CaseEstimate e = estimate_case(eager_step_s, variants, validation_steps, sampling);
  const double probe_s = std::max(eager_step_s, 0.0);
  CaseTimeRange r;
  r.most_s = std::max(sampling.max_time_s, probe_s);
  r.least_s = std::min(probe_s + e.total_min_s(), r.most_s);
  return r;
}

std::string expected_time_note(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling) {
  const CaseTimeRange r = expected_case_seconds(eager_step_s, variants, validation_steps, sampling);
  const std::string range = r.most_s > r.least_s * 1.05
                                ? fmt::format("{} to {}", format_duration(r.least_s), format_duration(r.most_s))
                                : format_duration(r.least_s);
  return fmt::format("one eager step took {} on this device, so this case takes about {} (its time limit: {})",
                     format_duration(eager_step_s), range, format_duration(sampling.max_time_s));
}

}  // namespace graphbench
