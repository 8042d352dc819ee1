#include "graphbench/engine/runner/benchmark_case.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/interrupt.h"
#include "graphbench/core/base/non_copyable.h"
#include "graphbench/engine/exec/cached_memory.h"
#include "graphbench/core/report/progress.h"
#include "graphbench/engine/runner/case_back_to_back.h"
#include "graphbench/engine/runner/phase_laps.h"
#include "graphbench/engine/runner/case_profile.h"
#include "graphbench/engine/runner/case_records.h"
#include "graphbench/engine/runner/case_summary.h"
#include "graphbench/engine/runner/case_timing.h"
#include "graphbench/engine/runner/case_trace.h"
#include "graphbench/engine/runner/validation.h"
#include "graphbench/core/sampling/case_budget.h"
#include "graphbench/engine/timing/nvtx_range.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace graphbench {

namespace {

std::vector<std::string> other_cases(const std::vector<std::string>& all, const std::string& name) {
  std::vector<std::string> others;
  for (const auto& c : all) {
    if (c != name) others.push_back(c);
  }
  return others;
}

// What the kernel profile and the summary cost here, as the last case measured (plan_after_sampling).
AfterSamplingRates& after_sampling_rates() {
  static AfterSamplingRates rates;
  return rates;
}

// Destroyed after the case's instance and runners: the memory cached for them goes back (cached_memory.h).
class CachedMemoryReleasedAtEnd : NonCopyable {
 public:
  explicit CachedMemoryReleasedAtEnd(bool cuda) : cuda_(cuda) {}
  ~CachedMemoryReleasedAtEnd() {
    if (!cuda_) return;
    try {
      release_cached_device_memory();
    } catch (const std::exception&) {
      // A CUDA error left by the case: the next one reports it.
    }
  }

 private:
  bool cuda_;
};

}  // namespace

std::vector<ResultRecord> run_benchmark_case(const Workload& workload, const CaseSpec& spec,
                                             const CaseContext& context, const Environment& environment,
                                             std::ostream* log) {
  const NvtxRange case_range("case " + spec.name);
  std::vector<ResultRecord> records = make_records(spec, context);
  const auto say = case_log(log, spec.name);

  const CachedMemoryReleasedAtEnd release_at_end(context.device.is_cuda());
  std::unique_ptr<CaseInstance> instance;
  try {
    at::manual_seed(context.seed);
    instance = workload.instantiate(spec, context);
  } catch (const InputError&) {
    throw;  // bad data or parameters: the suite runner records it and exits with 2 at the end
  } catch (const std::exception& e) {
    for (auto& r : records) mark_failed(r, std::string("setting up the case failed: ") + e.what());
    return records;
  }

  for (const std::string& note : instance->setup_notes()) {
    for (auto& r : records) r.warnings.push_back(note);
  }
  const std::vector<VariantRecord> runnable = runnable_variants(spec, records, [&](const Variant& v) {
    // The case's own reason first: a model format this build cannot load skips every variant.
    const std::string why = instance->skip_reason(v);
    return why.empty() ? skip_reason(v, context) : why;
  });

  if (runnable.empty()) return records;

  // The case's time limit runs from here (making the case is not counted).
  const auto case_started = std::chrono::steady_clock::now();
  double step_s = 0.0;
  if (context.time_limit_cuts_validation) {
    // Under a limit for the whole case, what it needs at the least (one eager step, or on the CPU the
    // roofline, tells) fits it, or the case is skipped before the rest runs.
    const StepCost cost = instance->cost();
    if (!context.device.is_cuda() && (cost.flops > 0 || cost.bytes > 0)) {
      const DevicePeaks& peaks = cpu_peaks();
      const std::string why = roofline_too_long_reason(cost.flops, cost.bytes, peaks.flops_per_s, peaks.bytes_per_s,
                                                       static_cast<int>(runnable.size()), instance->validation_steps(),
                                                       0, spec.sampling);
      if (skipped_all(why, runnable, say)) return records;
    }
    try {
      step_s = probe_eager_step_s(*instance, runnable, spec.sampling.max_time_s, context.device.is_cuda());
    } catch (const std::exception&) {
      step_s = 0.0;  // validation runs eager again and reports what failed
    }
    const std::string why = too_long_reason(step_s, static_cast<int>(runnable.size()), instance->validation_steps(),
                                            spec.sampling);
    if (skipped_all(why, runnable, say)) return records;
    say(expected_time_note(step_s, static_cast<int>(runnable.size()), instance->validation_steps(), spec.sampling));
  }
  PhaseLaps laps(case_started);  // where the time went, for the closing line under a limit
  laps.lap("probe");
  say("validating against eager");
  {
    const NvtxRange phase("validate");
    ProgressLine progress(context.progress);
    bool estimated = false;
    validate_against_eager(*instance, runnable, [&](const ValidationStep& s) {
      progress.update(validation_progress_text(spec.name, s.variant, s.index, s.count, s.step, s.steps),
                      /*force=*/s.seconds < 0 && s.step == 1);
      if (s.seconds < 0) return;
      // An eager step stands for every step: the second (the first pays one-time costs), or the first
      // when long or alone. Under a limit for the whole case the probe's estimate was said already.
      if (context.time_limit_cuts_validation) return;
      if (!estimated && s.index == 1 && (s.step == 2 || s.step == s.steps || s.seconds >= 1.0)) {
        estimated = true;
        const int variants = static_cast<int>(runnable.size());
        const std::string note = long_case_note(spec.name, estimate_case(s.seconds, variants, s.steps, spec.sampling),
                                                other_cases(context.case_names, spec.name), spec.sampling, variants);
        if (!note.empty() && log != nullptr) {
          progress.clear();
          *log << "  " << note << std::endl;
        }
      }
    }, context.time_limit_cuts_validation
           ? std::max(validation_budget_s(spec.sampling.max_time_s, seconds_since(case_started),
                                          minimum_sampling_seconds(step_s, static_cast<int>(runnable.size()),
                                                                   spec.sampling)),
                      1e-6)  // a budget of 0 would be none at all
           : 0.0);
  }
  laps.lap("validation");
  say("timing the validated variants, interleaved");
  // Under a limit for the whole case, sampling leaves room for the profile, the back-to-back steps and
  // the bootstraps, planned from the step and what those cost in the cases before.
  const bool on_gpu = context.device.is_cuda();
  const int variants = static_cast<int>(runnable.size());
  const AfterSamplingPlan after = plan_after_sampling(
      spec.sampling.max_time_s, spec.sampling.max_time_s - seconds_since(case_started), step_s, variants,
      context.profile && on_gpu ? kProfiledSteps : 0, on_gpu && !context.cold_l2, spec.sampling, after_sampling_rates());
  TimedCase timed = [&] {
    const NvtxRange phase("time");
    // Under --max-time the limit holds from validation on; else from here, for warm-up and sampling.
    const double limit_from_here =
        context.time_limit_cuts_validation
            ? spec.sampling.max_time_s - after.reserve_s - seconds_since(case_started)
            : spec.sampling.max_time_s;
    return time_variants(*instance, runnable, spec, context, nullptr, std::max(limit_from_here, 0.0));
  }();
  if (stop_requested()) return records;  // interrupted: the suite runner leaves this case out
  laps.lap("timed");
  // Under a limit for the whole case the kernel profile runs where it fits what is left.
  CaseContext profile_context = context;
  if (context.profile && on_gpu && context.time_limit_cuts_validation) {
    const double need_s = after.profile_s * static_cast<double>(timed.timed.size()) / std::max(variants, 1);
    const double left_s = spec.sampling.max_time_s - after.summary_s - seconds_since(case_started);
    if (need_s > left_s) {
      profile_context.profile = false;
      for (const auto& v : timed.variants) {
        v.record->warnings.push_back(fmt::format("no kernel profile: its {} steps of each variant (about {}) would "
                                                 "end past the case's time limit of {}",
                                                 kProfiledSteps, format_duration(need_s),
                                                 format_duration(spec.sampling.max_time_s)));
      }
    }
  }
  if (profile_context.profile && on_gpu) say("profiling kernels and checking them");
  {
    const NvtxRange phase("profile");
    profile_variants(timed, *instance, profile_context);
  }
  if (profile_context.profile && on_gpu && !timed.timed.empty()) {
    const double n = static_cast<double>(timed.timed.size());
    after_sampling_rates().profile_s_per_variant =
        std::max(laps.lap("kernel profile") / n - kProfiledSteps * step_s, 0.0);
  }
  if (context.device.is_cuda() && !context.cold_l2) say("timing steps back to back, the host's launches off the clock");
  {
    const NvtxRange phase("back-to-back");
    // Under a limit for the whole case no try starts where the summary's bootstraps would no longer fit.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    if (context.time_limit_cuts_validation) {
      const std::chrono::duration<double> until(spec.sampling.max_time_s - after.summary_s);
      deadline = case_started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(until);
    }
    time_variants_back_to_back(timed, context, deadline);
  }
  if (context.device.is_cuda() && !context.cold_l2) laps.lap("back to back");
  if (!context.trace_dir.empty()) say("tracing a few steps of each variant into " + context.trace_dir);
  trace_variants(timed, context);
  if (!context.trace_dir.empty()) laps.lap("trace");
  summarize_timing(timed, instance->cost(), environment);
  std::size_t samples = 0;
  for (const TimedVariant& v : timed.timed) samples += v.device_us.size();
  const double summary_s = laps.lap("summary");
  if (samples > 0) after_sampling_rates().summary_s_per_sample = summary_s / static_cast<double>(samples);
  if (context.time_limit_cuts_validation) {
    say(fmt::format("took {} (its time limit: {}): {}", format_duration(seconds_since(case_started)),
                    format_duration(spec.sampling.max_time_s), laps.text()));
  }
  return records;
}

}  // namespace graphbench
