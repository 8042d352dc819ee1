#include "graphbench/core/sampling/case_budget.h"

#include "graphbench/core/report/progress.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace graphbench {

double minimum_sampling_seconds(double step_s, int variants, const SamplingSpec& sampling) {
  const double step = std::max(step_s, 0.0);
  const double sample_s = std::max(step, sampling.min_sample_time_ms * 1e-3);
  // Fewer where the settings ask for fewer (--min-samples 1, --warmup 0).
  const double rounds = std::clamp(sampling.min_samples, 1, kMinimumRounds);
  const double warm_up_s = sampling.warmup_steps > 0 ? step : 0.0;
  return std::max(variants, 1) * (warm_up_s + sample_s + rounds * sample_s);
}

double minimum_case_seconds(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling) {
  const double step_s = std::max(eager_step_s, 0.0);
  const double validation_s = std::max(variants, 1) * std::max(validation_steps, 1) * step_s;
  return step_s + validation_s + minimum_sampling_seconds(step_s, variants, sampling);
}

double validation_budget_s(double limit_s, double spent_s, double rest_min_s) {
  const double share_s = kValidationShare * limit_s;
  const double leaves_s = (1.0 - kAfterSamplingShare) * limit_s - spent_s - rest_min_s;
  return std::max(std::min(share_s, leaves_s), 0.0);
}

AfterSamplingPlan plan_after_sampling(double limit_s, double left_s, double step_s, int variants, int profiled_steps,
                                      bool back_to_back, const SamplingSpec& sampling,
                                      const AfterSamplingRates& rates) {
  AfterSamplingPlan plan;
  const double n = std::max(variants, 1);
  if (profiled_steps > 0) plan.profile_s = n * (profiled_steps * step_s + rates.profile_s_per_variant);
  if (back_to_back) plan.back_to_back_s = kBackToBackShare * limit_s;
  // Each round takes a sample of every variant, so the samples of all variants together are about
  // the sampling time over a sample's length, whatever the number of variants.
  const double sample_s = std::max(step_s, sampling.min_sample_time_ms * 1e-3);
  const double sampling_s = std::max(left_s - plan.profile_s - plan.back_to_back_s, 0.0) /
                            (1.0 + rates.summary_s_per_sample / sample_s);
  const double samples = std::min(sampling_s / sample_s, n * sampling.max_samples);
  plan.summary_s = samples * rates.summary_s_per_sample;
  plan.reserve_s = std::max(kAfterSamplingShare * limit_s, plan.profile_s + plan.back_to_back_s + plan.summary_s);
  return plan;
}

double offered_max_time(double seconds) {
  if (!(seconds > 0)) return 1.0;
  if (seconds <= 60) return std::max(1.0, std::ceil(seconds));
  return std::ceil(seconds / 10.0) * 10.0;
}

namespace {

std::string skip_text(double step_s, double need_s, const std::string& what, const SamplingSpec& sampling) {
  const double limit_needed_s = need_s / (1.0 - kAfterSamplingShare);
  // A need inside the limit is refused for the part of the limit kept for after the samples: say so,
  // or "needs 2.8 s, more than its 3.0 s allows" reads as a contradiction.
  const std::string kept = need_s <= sampling.max_time_s
                               ? fmt::format("; {:g}% of its limit is kept for after the samples", 100 * kAfterSamplingShare)
                               : "";
  return fmt::format("skipped before it started: one eager step took {} on this device, so this case needs about {} "
                     "at the least ({}{}), more than its time limit of {} allows: --max-time {:g} gives it that time",
                     format_duration(step_s), format_duration(need_s), what, kept, format_duration(sampling.max_time_s),
                     offered_max_time(kOfferedRoom * limit_needed_s));
}

}  // namespace

std::string too_long_reason(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling) {
  const double need_s = minimum_case_seconds(eager_step_s, variants, validation_steps, sampling);
  // Sampling stops by what is left of the limit less the share kept for after it.
  if (need_s / (1.0 - kAfterSamplingShare) <= sampling.max_time_s) return "";
  return skip_text(eager_step_s, need_s,
                   fmt::format("one validation run and {:g} sample(s) of each of its {} variant(s)",
                               static_cast<double>(std::clamp(sampling.min_samples, 1, kMinimumRounds)),
                               std::max(variants, 1)),
                   sampling);
}

double roofline_step_seconds(double flops, double bytes, double flops_per_s, double bytes_per_s) {
  const double compute_s = flops > 0 && flops_per_s > 0 ? flops / flops_per_s : 0.0;
  const double memory_s = bytes > 0 && bytes_per_s > 0 ? bytes / bytes_per_s : 0.0;
  return std::max(compute_s, memory_s);
}

std::string roofline_too_long_reason(double flops, double bytes, double flops_per_s, double bytes_per_s, int variants,
                                     int validation_steps, int ranks, const SamplingSpec& sampling) {
  const double at_peak_s = roofline_step_seconds(flops, bytes, flops_per_s, bytes_per_s);
  const double least_step_s = at_peak_s / kRooflineRoom;
  const auto need = [&](double step_s) {
    return ranks > 0 ? data_parallel_minimum(step_s, variants, validation_steps, ranks, sampling).total_s()
                     : minimum_case_seconds(step_s, variants, validation_steps, sampling);
  };
  const double need_s = need(least_step_s);
  if (need_s / (1.0 - kAfterSamplingShare) <= sampling.max_time_s) return "";
  // Where even steps of no time would not fit, the settings (min_sample_time_ms) do not, not the
  // step: the probe says so, with the time of a real step.
  if (need(0.0) / (1.0 - kAfterSamplingShare) > sampling.max_time_s) return "";
  const bool compute = flops > 0 && flops_per_s > 0 && flops / flops_per_s >= at_peak_s;
  const std::string does = compute ? fmt::format("{:.3g} GFLOP", flops * 1e-9) : fmt::format("{:.3g} GB", bytes * 1e-9);
  const std::string peak = compute ? fmt::format("{:.3g} GFLOP/s, the most it did in a matrix product", flops_per_s * 1e-9)
                                   : fmt::format("{:.3g} GB/s, the most it did in a copy", bytes_per_s * 1e-9);
  // The offer is the need at the measured peak itself: there the probe tells the rest.
  return fmt::format("skipped before it started: its step does {}, at least {} on this device (at {:g} times {}), so this "
                     "case needs at least {} ({}one validation run and {:g} sample(s) of each of its {} variant(s)), "
                     "more than its time limit of {} allows: --max-time {:g} lets its probe time one step and tell "
                     "what it needs",
                     does, format_duration(least_step_s), kRooflineRoom, peak, format_duration(need_s),
                     ranks > 0 ? fmt::format("on each of {} ranks ", ranks) : "",
                     static_cast<double>(std::clamp(sampling.min_samples, 1, kMinimumRounds)), std::max(variants, 1),
                     format_duration(sampling.max_time_s),
                     offered_max_time(kOfferedRoom * need(at_peak_s) / (1.0 - kAfterSamplingShare)));
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

std::string data_parallel_too_long_reason(double eager_step_s, int variants, int validation_steps, int ranks,
                                          const SamplingSpec& sampling, double setup_s) {
  const DataParallelMinimum minimum = data_parallel_minimum(eager_step_s, variants, validation_steps, ranks, sampling, setup_s);
  const double need_s = minimum.total_s();
  if (need_s / (1.0 - kAfterSamplingShare) <= sampling.max_time_s) return "";
  return skip_text(eager_step_s, need_s,
                   fmt::format("on each of {} ranks one validation run of each of its {} variant(s), one step of one "
                               "process on the global batch, and {:g} sample(s) of each variant with all-reduce, "
                               "without{}{}",
                               std::max(ranks, 1), std::max(variants, 1),
                               static_cast<double>(std::clamp(sampling.min_samples, 1, kMinimumRounds)),
                               ranks > 1 ? " and on rank 0 alone" : "",
                               setup_s > 0 ? fmt::format(", the case set up {} more times ({} each)", minimum.instances,
                                                         format_duration(setup_s))
                                           : ""),
                   sampling);
}

DataParallelMinimum data_parallel_minimum(double eager_step_s, int variants, int validation_steps, int ranks,
                                          const SamplingSpec& sampling, double setup_s) {
  const double step_s = std::max(eager_step_s, 0.0);
  DataParallelMinimum m;
  m.probe_s = step_s;
  m.validation_s = std::max(variants, 1) * std::max(validation_steps, 1) * step_s;
  m.one_process_s = std::max(ranks, 1) * step_s;
  m.phase_s = minimum_sampling_seconds(step_s, variants, sampling);
  m.phases = ranks > 1 ? 3 : 2;  // with all-reduce, without, rank 0 alone
  // The all-reduce alone, eager and graph: its calibration and samples last a sample each.
  m.all_reduce_s = 2.0 * (2.0 + std::clamp(sampling.min_samples, 1, kMinimumRounds)) * sampling.min_sample_time_ms * 1e-3;
  m.setup_s = std::max(setup_s, 0.0);
  m.instances = m.phases;  // the one-process reference, the phase without all-reduce, rank 0 alone
  return m;
}

double rolling_phase_seconds(double planned_s, double planned_left_s, double left_s) {
  if (planned_left_s <= 0.0) return 0.0;
  return std::max(planned_s, 0.0) * std::max(left_s, 0.0) / planned_left_s;
}

DataParallelPhaseShares data_parallel_phase_shares(double left_s, const DataParallelMinimum& minimum) {
  const double left = std::max(left_s, 0.0);
  const double one_rank = minimum.phases > 2 ? 1.0 : 0.0;
  DataParallelPhaseShares base;
  base.timed = minimum.phase_s;
  base.no_all_reduce = minimum.phase_s;
  base.one_rank = one_rank * minimum.phase_s;
  base.all_reduce_alone = minimum.all_reduce_s;
  const double base_total = base.timed + base.no_all_reduce + base.one_rank + base.all_reduce_alone;
  if (left <= base_total) {
    const double f = base_total > 0 ? left / base_total : 0.0;
    return {base.timed * f, base.no_all_reduce * f, base.all_reduce_alone * f, base.one_rank * f};
  }
  const double over = left - base_total;
  const double weights = 2.0 + 1.0 + 0.5 + one_rank;
  return {base.timed + over * 2.0 / weights, base.no_all_reduce + over * 1.0 / weights,
          base.all_reduce_alone + over * 0.5 / weights, base.one_rank + over * one_rank / weights};
}

double test_pass_seconds(double train_step_s, std::int64_t batch, std::int64_t test_images) {
  if (batch <= 0 || test_images <= 0) return 0.0;
  return std::max(train_step_s, 0.0) * kTestImageShare * static_cast<double>(test_images) / static_cast<double>(batch);
}

namespace {

// The --max-time that gives every variant `epochs` epochs of `epoch_s`, room for slower steps
// included.
double offered_for_epochs(int epochs, double epoch_s, int variants) {
  return offered_max_time(kOfferedRoom * std::max(variants, 1) * epochs * epoch_s / (1.0 - kAfterSamplingShare));
}

std::string limit_text(double limit_s, int variants) {
  if (variants <= 1) return format_duration(limit_s);
  return fmt::format("{} for each of its {} variants", format_duration(limit_s),
                     std::max(variants, 1));
}

}  // namespace

TrainingPlan plan_training(double step_s, std::int64_t steps_per_epoch, double test_s, int epochs, double limit_s,
                           int variants) {
  TrainingPlan plan;
  plan.epochs_asked = std::max(epochs, 1);
  plan.epoch_s = std::max(step_s, 0.0) * static_cast<double>(std::max<std::int64_t>(steps_per_epoch, 0)) +
                 std::max(test_s, 0.0);
  const double usable_s = (1.0 - kAfterSamplingShare) * limit_s;
  const double fit = plan.epoch_s > 0 ? std::floor(usable_s / plan.epoch_s) : plan.epochs_asked;
  plan.epochs = static_cast<int>(std::min<double>(fit, plan.epochs_asked));
  const std::string limit = limit_text(limit_s, variants);
  if (plan.epochs < 1) {
    plan.epochs = 0;
    plan.skip_reason = fmt::format(
        "skipped before it started: one training step took {} on this device, so one epoch ({} steps and its test "
        "pass) takes about {}, more than its time limit of {} allows: --max-time {:g} gives it one epoch{}",
        format_duration(step_s), steps_per_epoch, format_duration(plan.epoch_s), limit,
        offered_for_epochs(1, plan.epoch_s, variants),
        plan.epochs_asked > 1 ? fmt::format(", --max-time {:g} all {}",
                                            offered_for_epochs(plan.epochs_asked, plan.epoch_s, variants),
                                            plan.epochs_asked)
                              : "");
    return plan;
  }
  const std::string head = fmt::format("one training step took {} on this device, so", format_duration(step_s));
  if (plan.epochs == plan.epochs_asked) {
    plan.note = fmt::format("{} this run takes about {} ({} epoch{} of about {}; its time limit: {})", head,
                            format_duration(plan.epochs * plan.epoch_s), plan.epochs, plan.epochs == 1 ? "" : "s",
                            format_duration(plan.epoch_s), limit);
  } else {
    plan.note = fmt::format("{} {} of its {} epochs fit its time limit of {}: this run takes about {} ({} each; "
                            "--max-time {:g} gives it all {})",
                            head, plan.epochs, plan.epochs_asked, limit, format_duration(plan.epochs * plan.epoch_s),
                            format_duration(plan.epoch_s),
                            offered_for_epochs(plan.epochs_asked, plan.epoch_s, variants), plan.epochs_asked);
  }
  return plan;
}

bool another_epoch_fits(double elapsed_s, double epoch_s, double limit_s) {
  return elapsed_s + std::max(epoch_s, 0.0) <= limit_s;
}

std::string epochs_cut_warning(int done, int asked, double epoch_s, double limit_s, int variants) {
  return fmt::format("trained {} of {} epochs: another would have ended past the time limit of {} (--max-time {:g} "
                     "gives it all {})",
                     done, asked, limit_text(limit_s, variants), offered_for_epochs(asked, epoch_s, variants), asked);
}

}  // namespace graphbench
