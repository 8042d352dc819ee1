#include "graphbench/engine/runner/case_summary.h"

#include "graphbench/core/clocks/clock_warnings.h"
#include "graphbench/core/clocks/energy.h"
#include "graphbench/core/record/launches.h"
#include "graphbench/core/stats/block_bootstrap.h"
#include "graphbench/core/stats/bootstrap.h"
#include "graphbench/core/stats/break_even.h"
#include "graphbench/core/stats/statistics.h"

#include <fmt/format.h>

#include <future>
#include <limits>

namespace graphbench {

namespace {

void fill_timing(ResultRecord& record, const TimedVariant& timed, const std::string& stop_reason, int min_samples,
                 double rel_noise) {
  record.steps_per_sample = timed.steps_per_sample;
  record.samples_us = timed.device_us;
  record.host_samples_us = timed.host_us;
  record.issue_samples_us = timed.issue_us;
  record.stats = stats::summarize(timed.device_us);
  record.host_stats = stats::summarize(timed.host_us);
  if (!timed.issue_us.empty()) record.issue_median_us = stats::summarize(timed.issue_us).median;
  record.rel_noise = rel_noise;
  record.stop_reason = stop_reason;
  record.min_samples = min_samples;
  if (has_too_few_samples(record)) {
    // A figure from fewer samples than asked for has no interval (docs/results.md).
    record.rel_noise = std::numeric_limits<double>::infinity();
    record.warnings.push_back(fmt::format("{} samples, fewer than min_samples {}: the median and the speedup have no "
                                          "interval",
                                          record.samples_us.size(), min_samples));
  }
  if (!timed.warmup_cut.empty()) record.warnings.push_back(timed.warmup_cut);
  const double rel_iqr = record.stats->iqr / record.stats->median;
  if (rel_iqr > 0.10) {
    record.warnings.push_back(fmt::format("IQR is {:.0f}% of the median (over 10%): noisy measurement", rel_iqr * 100));
  }
  if (stop_reason.find("timeout") != std::string::npos || stop_reason.find("max samples") != std::string::npos) {
    record.warnings.push_back("sampling stopped early: " + stop_reason);
  }
}

void fill_roofline(ResultRecord& record, const StepCost& cost, const Environment& environment) {
  if (!record.stats || (cost.bytes <= 0 && cost.flops <= 0)) return;
  Roofline r;
  r.bytes = cost.bytes;
  r.flops = cost.flops;
  const double seconds = record.stats->median * 1e-6;
  r.achieved_gbps = cost.bytes / seconds / 1e9;
  r.achieved_tflops = cost.flops / seconds / 1e12;
  if (environment.copy_bandwidth_gbps && *environment.copy_bandwidth_gbps > 0) {
    r.bandwidth_share = r.achieved_gbps / *environment.copy_bandwidth_gbps;
    if (*r.bandwidth_share > 1.0) {
      record.warnings.push_back(fmt::format(
          "{:.0f} GB/s is {:.0f}% of the measured copy bandwidth ({:.0f} GB/s): the step's {:.3g} MB stay in the GPU's "
          "caches (cache-resident), so this is not a DRAM bandwidth",
          r.achieved_gbps, 100.0 * *r.bandwidth_share, *environment.copy_bandwidth_gbps, cost.bytes / 1e6));
    }
  }
  record.roofline = r;
}

// A step whose issue time is within 5% of its device time keeps the GPU waiting for the CPU.
void fill_host_bound(ResultRecord& record) {
  if (!record.issue_median_us || !record.stats) return;
  record.host_bound = is_host_bound(*record.issue_median_us, record.stats->median);
  if (*record.host_bound) {
    std::string back_to_back;
    if (record.back_to_back_us) {
      back_to_back = fmt::format("; queued back to back, the device runs one in {:.3g} us", *record.back_to_back_us);
    }
    record.warnings.push_back(fmt::format("host-bound: the GPU waits for the CPU (the host issues a step in {:.3g} us "
                                          "of its {:.3g} us{})",
                                          *record.issue_median_us, record.stats->median, back_to_back));
  }
}

void fill_memory(ResultRecord& record, const TimedVariant& timed) {
  if (!timed.memory) return;
  MemoryUse m;
  m.peak_allocated_bytes = timed.memory->peak_allocated;
  m.peak_reserved_bytes = timed.memory->peak_reserved;
  m.step_peak_bytes = timed.memory->above_start;
  m.graph_pool_bytes = graph_pools_bytes(record);
  record.memory = m;
}

void fill_busy_share(ResultRecord& record) {
  if (record.profile && record.stats && record.stats->median > 0) {
    record.profile->busy_share = record.profile->busy_us_per_step / record.stats->median;
  }
}

// What the capture costs in replays (core/stats/break_even.h), for a variant that captured.
void fill_break_even(ResultRecord& record, double eager_median_us) {
  if (!record.capture_ms || !record.stats) return;
  if (const auto b = stats::break_even(*record.capture_ms, record.warmup_ms.value_or(0.0), eager_median_us,
                                       record.stats->median)) {
    record.break_even_replays = b->replays;
    record.break_even_s = b->seconds;
  }
}

}  // namespace

bool is_host_bound(double issue_median_us, double device_median_us) {
  return device_median_us > 0 && issue_median_us >= 0.95 * device_median_us;
}

void summarize_timing(TimedCase& timed, const StepCost& cost, const Environment& environment) {
  // The bootstraps (each variant's noise and speedup interval) side by side: 10 to 30 ms each, and
  // the summary counts against a case's limit.
  const std::size_t n = timed.timed.size();
  const auto timed_ok = [&](std::size_t i) {
    return timed.timed[i].error.empty() && timed.variants[i].record->status == RecordStatus::kOk;
  };
  std::size_t eager_index = n;
  for (std::size_t i = 0; i < n && eager_index == n; ++i) {
    if (timed_ok(i) && timed.variants[i].variant.is_eager_baseline()) eager_index = i;
  }
  std::vector<std::future<double>> noise(n);
  std::vector<std::future<stats::RatioEstimate>> ratios(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!timed_ok(i)) continue;
    const std::vector<double>* samples = &timed.timed[i].device_us;
    noise[i] = std::async(std::launch::async, [samples] { return stats::median_block_noise(*samples); });
    if (eager_index < n && i != eager_index) {
      const std::vector<double>* eager_samples = &timed.timed[eager_index].device_us;
      ratios[i] = std::async(std::launch::async, [eager_samples, samples] {
        return stats::ratio_by_rounds({stats::RunSamples{{eager_samples}, {samples}}});
      });
    }
  }
  const TimedVariant* eager = nullptr;
  for (std::size_t i = 0; i < timed.timed.size(); ++i) {
    ResultRecord& r = *timed.variants[i].record;
    if (!timed.timed[i].error.empty()) {
      mark_failed(r, "failed while timing: " + timed.timed[i].error);
      continue;
    }
    r.counters = timed.runners[i]->counters();
    r.capture_ms = timed.runners[i]->capture_ms();
    r.warmup_ms = timed.runners[i]->warmup_ms();
    if (r.status != RecordStatus::kOk) continue;  // failed its kernel check (case_profile.h)
    note_capture_failures(r, *timed.runners[i]);
    fill_timing(r, timed.timed[i], timed.stop_reason, timed.min_samples, noise[i].get());
    fill_host_bound(r);
    fill_memory(r, timed.timed[i]);
    fill_busy_share(r);
    r.l2 = timed.l2;
    fill_roofline(r, cost, environment);
    if (i < timed.conditions.size()) timed.conditions[i].fill(r, timed.sm_clock_reference_mhz);
    if (i < timed.energy.size()) r.energy = energy_per_step(timed.energy[i]);
    if (timed.variants[i].variant.is_eager_baseline()) eager = &timed.timed[i];
  }
  std::vector<ResultRecord*> case_records;
  for (const VariantRecord& v : timed.variants) case_records.push_back(v.record);
  add_clock_warnings(case_records);
  fill_energy_vs_eager(case_records);
  if (eager == nullptr) return;
  const bool eager_short = eager->device_us.size() < static_cast<std::size_t>(timed.min_samples);
  // Speedup = eager's median over the variant's: above 1 the variant is faster.
  for (std::size_t i = 0; i < timed.timed.size(); ++i) {
    ResultRecord& r = *timed.variants[i].record;
    if (r.status != RecordStatus::kOk) continue;
    if (&timed.timed[i] == eager) {
      r.speedup_vs_eager = 1.0;  // by definition; an interval of eager against itself means nothing
      continue;
    }
    // Sample k of both comes from round k: resampled together, in blocks (core/stats/block_bootstrap.h).
    const auto ratio = ratios[i].get();
    r.speedup_vs_eager = ratio.ratio;
    // No interval from fewer samples than asked for, on either side of the ratio.
    if (!eager_short && !has_too_few_samples(r)) r.speedup_ci95 = ratio.ci95;
    if (eager_short && !has_too_few_samples(r)) {
      r.warnings.push_back(fmt::format("eager has {} samples, fewer than min_samples {}: the speedup has no interval",
                                       eager->device_us.size(), timed.min_samples));
    }
    fill_break_even(r, stats::summarize(eager->device_us).median);
  }
}

}  // namespace graphbench
