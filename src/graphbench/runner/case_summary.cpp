#include "graphbench/runner/case_summary.h"

#include "graphbench/stats/bootstrap.h"
#include "graphbench/stats/statistics.h"

#include <fmt/format.h>

namespace graphbench {

namespace {

void fill_timing(ResultRecord& record, const TimedVariant& timed, const std::string& stop_reason) {
  record.steps_per_sample = timed.steps_per_sample;
  record.samples_us = timed.device_us;
  record.host_samples_us = timed.host_us;
  record.stats = stats::summarize(timed.device_us);
  record.host_stats = stats::summarize(timed.host_us);
  record.rel_noise = stats::median_relative_noise(timed.device_us);
  record.stop_reason = stop_reason;
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
  if (environment.copy_bandwidth_gbps > 0) r.bandwidth_share = r.achieved_gbps / environment.copy_bandwidth_gbps;
  record.roofline = r;
}

}  // namespace

void summarize_timing(TimedCase& timed, const StepCost& cost, const Environment& environment) {
  const TimedVariant* eager = nullptr;
  for (std::size_t i = 0; i < timed.timed.size(); ++i) {
    ResultRecord& r = *timed.variants[i].record;
    if (!timed.timed[i].error.empty()) {
      mark_failed(r, "failed while timing: " + timed.timed[i].error);
      continue;
    }
    fill_timing(r, timed.timed[i], timed.stop_reason);
    fill_roofline(r, cost, environment);
    r.counters = timed.runners[i]->counters();
    r.capture_ms = timed.runners[i]->capture_ms();
    r.sm_clock_start_mhz = timed.sm_clock_start_mhz;
    r.sm_clock_end_mhz = timed.sm_clock_end_mhz;
    if (timed.variants[i].variant.is_eager_baseline()) eager = &timed.timed[i];
  }
  if (eager == nullptr) return;
  // Speedup = eager's median over the variant's: above 1 the variant is faster.
  for (std::size_t i = 0; i < timed.timed.size(); ++i) {
    ResultRecord& r = *timed.variants[i].record;
    if (r.status != RecordStatus::kOk) continue;
    if (&timed.timed[i] == eager) {
      r.speedup_vs_eager = 1.0;  // by definition; an interval of eager against itself means nothing
      continue;
    }
    const auto ratio = stats::ratio_of_medians(eager->device_us, timed.timed[i].device_us);
    r.speedup_vs_eager = ratio.ratio;
    r.speedup_ci95 = ratio.ci95;
  }
}

}  // namespace graphbench
