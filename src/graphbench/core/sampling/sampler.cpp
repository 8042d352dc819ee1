#include "graphbench/core/sampling/sampler.h"

#include "graphbench/core/base/interrupt.h"
#include "graphbench/core/stats/block_bootstrap.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace graphbench {

namespace {

bool active(const TimedVariant& v) { return v.error.empty(); }

void run_steps(TimedVariant& v, std::int64_t steps) {
  for (std::int64_t i = 0; i < steps; ++i) v.step();
}

}  // namespace

// A timed block of steps: the timer's per-step hooks only when it asks for them, so that the
// ordinary hot loop is nothing but the steps.
void run_block(TimedVariant& v, std::int64_t steps, SampleTimer& timer) {
  if (!timer.times_each_step()) return run_steps(v, steps);
  for (std::int64_t i = 0; i < steps; ++i) {
    timer.before_step();
    v.step();
    timer.after_step();
  }
}

namespace {

void keep_highest(std::optional<MemoryPeak>& kept, const std::optional<MemoryPeak>& seen) {
  if (!seen) return;
  if (!kept) {
    kept = seen;
    return;
  }
  kept->peak_allocated = std::max(kept->peak_allocated, seen->peak_allocated);
  kept->peak_reserved = std::max(kept->peak_reserved, seen->peak_reserved);
  kept->above_start = std::max(kept->above_start, seen->above_start);
}

// Runs `fn` for one variant, turning an exception into the variant's error.
template <typename F>
void guarded(TimedVariant& v, F&& fn) {
  if (!active(v)) return;
  try {
    fn();
  } catch (const std::exception& e) {
    v.error = e.what();
  }
}

// Steps per sample so that a sample lasts `min_sample_time_us`. With an agreement, the ranks run
// the same blocks: they go on while any rank wants a longer block, at the largest length asked for.
void calibrate(TimedVariant& v, double min_sample_time_us, SampleTimer& timer, const SamplingAgreement* agreement) {
  std::int64_t steps = 1;
  for (;;) {
    timer.start();
    run_block(v, steps, timer);
    const double block_us = timer.stop(steps).host_us * static_cast<double>(steps);
    bool done = block_us >= min_sample_time_us || steps >= (std::int64_t{1} << 20);
    std::int64_t next = 0;
    if (done) {
      const double per_step = std::max(block_us / static_cast<double>(steps), 1e-3);
      next = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(min_sample_time_us / per_step)));
    } else {
      // Grow towards the target, at most 10x at a time.
      const double factor = block_us > 0 ? std::min(10.0, 1.2 * min_sample_time_us / block_us) : 10.0;
      next = std::max(steps + 1, static_cast<std::int64_t>(static_cast<double>(steps) * factor));
    }
    if (agreement != nullptr) {
      const auto agreed = agreement->max_over_ranks({done ? 0 : 1, next});
      done = agreed[0] == 0;
      next = agreed[1];
    }
    if (done) {
      v.steps_per_sample = next;
      return;
    }
    steps = next;
  }
}

// `local` taken elementwise at its largest over the ranks; `local` itself without an agreement.
std::vector<std::int64_t> agreed_max(const SamplingAgreement* agreement, const std::vector<std::int64_t>& local) {
  return agreement != nullptr ? agreement->max_over_ranks(local) : local;
}

// With an agreement: a variant that failed on any rank fails on all; returns whether any rank
// wants to go on (`go_on` is this rank's wish).
bool agree_on_round(std::vector<TimedVariant>& variants, bool go_on, const SamplingAgreement* agreement) {
  if (agreement == nullptr) return go_on;
  std::vector<std::int64_t> flags;
  for (const auto& v : variants) flags.push_back(active(v) ? 0 : 1);
  flags.push_back(go_on ? 1 : 0);
  flags = agreement->max_over_ranks(flags);
  for (std::size_t i = 0; i < variants.size(); ++i) {
    if (flags[i] != 0 && active(variants[i])) variants[i].error = "failed on another rank";
  }
  return flags.back() != 0;
}

// The stop rule judges a median's noise as the result does (core/stats/block_bootstrap.h: blocks of
// rounds, not independent samples), with fewer resamples: it is asked again as rounds accrue.
constexpr int kStopRuleResamples = 500;

bool has_minimum(const TimedVariant& v, const SamplingSpec& s) {
  return static_cast<int>(v.device_us.size()) >= s.min_samples && v.measured_s >= s.min_time_s;
}

bool converged(const TimedVariant& v, const SamplingSpec& s) {
  return has_minimum(v, s) && stats::median_block_noise(v.device_us, kStopRuleResamples) <= s.target_rel_noise;
}

// When to judge the noise again: a bootstrap per round would cost more than the round on a fast
// step, so once every variant has its minimum, the noise is judged whenever the rounds have grown
// by a tenth since the last time (at most ~50 times from 30 to 5000 samples).
class NoiseSchedule {
 public:
  bool due(const std::vector<TimedVariant>& variants, const SamplingSpec& s, std::size_t rounds) {
    for (const auto& v : variants) {
      if (active(v) && !has_minimum(v, s)) return false;
    }
    if (rounds < next_) return false;
    next_ = rounds + std::max<std::size_t>(1, rounds / 10);
    return true;
  }

 private:
  std::size_t next_ = 0;
};

// Why sampling stops after this round, or "" to go on. `judge_noise`: whether the noise target
// is judged this round (NoiseSchedule). `round_s`: how long the last round took; a round that would
// end past the timeout is not started (rounds are alike: every variant's sample once).
std::string stop_reason(const std::vector<TimedVariant>& variants, const SamplingSpec& sampling, double elapsed_s,
                        bool judge_noise, double round_s) {
  bool all_converged = judge_noise;
  bool all_at_max = true;
  bool any_active = false;
  int fewest = sampling.max_samples;
  for (const auto& v : variants) {
    if (!active(v)) continue;
    any_active = true;
    all_converged = all_converged && converged(v, sampling);
    all_at_max = all_at_max && static_cast<int>(v.device_us.size()) >= sampling.max_samples;
    fewest = std::min(fewest, static_cast<int>(v.device_us.size()));
  }
  if (!any_active) return "every variant failed";
  if (all_converged) return "noise target reached";
  if (all_at_max) return fmt::format("max samples ({}) reached before the noise target", sampling.max_samples);
  if (elapsed_s + round_s > sampling.max_time_s) {
    std::string reason = fewest < sampling.min_samples
                             ? fmt::format("timeout after {:.1f} s with only {} samples (min_samples {})", elapsed_s,
                                           fewest, sampling.min_samples)
                             : fmt::format("timeout after {:.1f} s before the noise target", elapsed_s);
    if (elapsed_s < sampling.max_time_s) {
      reason += fmt::format(": another round ({:.2g} s) would end past the limit of {:.3g} s", round_s,
                            sampling.max_time_s);
    }
    return reason;
  }
  return "";
}

}  // namespace

SamplingProgress rounds_time_left(const std::vector<TimedVariant>& variants, const SamplingSpec& sampling,
                                  std::size_t rounds, double elapsed_rounds_s, double elapsed_s) {
  SamplingProgress p;
  p.rounds = rounds;
  p.elapsed_s = elapsed_s;
  const double round_s = rounds > 0 ? elapsed_rounds_s / static_cast<double>(rounds) : 0.0;
  double rounds_to_min = 0.0;
  double rounds_to_max = 0.0;
  for (const auto& v : variants) {
    if (!active(v)) continue;
    const double samples = static_cast<double>(v.device_us.size());
    const double per_sample_s = samples > 0 ? v.measured_s / samples : 0.0;
    double needed = std::max(0.0, sampling.min_samples - samples);
    if (per_sample_s > 0) needed = std::max(needed, std::ceil((sampling.min_time_s - v.measured_s) / per_sample_s));
    rounds_to_min = std::max(rounds_to_min, needed);
    rounds_to_max = std::max(rounds_to_max, std::max(0.0, sampling.max_samples - samples));
  }
  const double timeout_left = std::max(0.0, sampling.max_time_s - elapsed_s);
  p.max_left_s = std::min(rounds_to_max * round_s, timeout_left);
  p.min_left_s = std::min(rounds_to_min * round_s, p.max_left_s);
  return p;
}

std::string sample_interleaved(std::vector<TimedVariant>& variants, const SamplingSpec& sampling, SampleTimer& timer,
                               const SamplingObserver& observer, const SamplingAgreement* agreement) {
  const double started = timer.now_s();
  auto elapsed_s = [&] { return timer.now_s() - started; };
  auto report = [&](SamplingProgress::Phase phase, const TimedVariant& v, int step = 0) {
    if (!observer || !active(v)) return;
    SamplingProgress p;
    p.phase = phase;
    p.variant = v.name;
    p.step = step;
    p.steps = phase == SamplingProgress::Phase::kWarmUp ? sampling.warmup_steps : 0;
    p.elapsed_s = elapsed_s();
    p.max_left_s = std::max(0.0, sampling.max_time_s - p.elapsed_s);
    observer(variants, p);
  };

  const auto interrupted = [] { return fmt::format("interrupted by {}", signal_name(stop_signal())); };
  // Each variant's share of the warm-up's part of the timeout; at least one step each.
  const double warm_up_share_s = kWarmUpShare * sampling.max_time_s / static_cast<double>(std::max<std::size_t>(variants.size(), 1));
  for (auto& v : variants) {
    const double warm_up_started = timer.now_s();
    for (int step = 1; step <= sampling.warmup_steps && active(v); ++step) {
      if (stop_requested()) return interrupted();
      // The ranks of a data-parallel case must take the same steps: they cut the warm-up together,
      // when the slowest rank's share is spent.
      const bool share_spent = step > 1 && agreed_max(agreement, {timer.now_s() - warm_up_started >= warm_up_share_s})[0];
      if (share_spent) {
        v.warmup_cut = sampling.max_time_s > 0
                           ? fmt::format("warm-up cut to {} of {} steps by the time limit ({:.3g} s of the {:.3g} s "
                                         "left for sampling)",
                                         v.warmup_steps_run, sampling.warmup_steps, warm_up_share_s, sampling.max_time_s)
                           : fmt::format("warm-up cut to {} of {} steps by the time limit (none of it was left for "
                                         "sampling)",
                                         v.warmup_steps_run, sampling.warmup_steps);
        break;
      }
      report(SamplingProgress::Phase::kWarmUp, v, step);
      guarded(v, [&] { v.step(); });
      if (active(v)) ++v.warmup_steps_run;
    }
  }
  agree_on_round(variants, false, agreement);
  for (auto& v : variants) {
    if (stop_requested()) return interrupted();
    report(SamplingProgress::Phase::kCalibration, v);
    guarded(v, [&] { calibrate(v, sampling.min_sample_time_ms * 1000.0, timer, agreement); });
  }

  const double rounds_started = elapsed_s();
  NoiseSchedule noise_schedule;
  for (std::size_t round = 0;; ++round) {
    const double round_started = elapsed_s();
    const std::size_t n = variants.size();
    for (std::size_t k = 0; k < n; ++k) {
      // A stop request ends sampling at the end of the current sample.
      if (stop_requested()) return interrupted();
      TimedVariant& v = variants[(round + k) % n];
      guarded(v, [&] {
        if (v.before_sample) v.before_sample();
        timer.start();
        run_block(v, v.steps_per_sample, timer);
        const StepTime t = timer.stop(v.steps_per_sample);
        v.device_us.push_back(t.device_us);
        v.host_us.push_back(t.host_us);
        if (t.issue_us) v.issue_us.push_back(*t.issue_us);
        keep_highest(v.memory, t.memory);
        v.measured_s += t.host_us * static_cast<double>(v.steps_per_sample) * 1e-6;
        if (v.after_sample) v.after_sample();
      });
    }
    if (observer) {
      const double now = elapsed_s();
      observer(variants, rounds_time_left(variants, sampling, round + 1, now - rounds_started, now));
    }
    // With an agreement, sampling goes on while any rank wants more: this rank stops only with a
    // reason of its own.
    const bool judge_noise = noise_schedule.due(variants, sampling, round + 1);
    const double now = elapsed_s();
    const std::string reason = stop_reason(variants, sampling, now, judge_noise, now - round_started);
    if (agree_on_round(variants, reason.empty(), agreement)) continue;
    return reason;
  }
}

}  // namespace graphbench
