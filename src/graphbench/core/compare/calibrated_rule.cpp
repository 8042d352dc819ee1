// The calibrated verdict rule and Holm over the rows (see verdict_rule.h).
#include "graphbench/core/compare/verdict_rule.h"

#include "graphbench/core/stats/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace graphbench::compare_detail {

namespace {

// A spread of exactly 0 (identical medians in every run) would make any difference significant.
constexpr double kSmallestLogSd = 1e-6;

double spread_of_difference(const Comparison& row) { return std::max(row.difference_sd, kSmallestLogSd); }

// The row's spread in words: a calibration's runs, or the files' processes.
std::string spread_text(const Comparison& row) {
  if (row.calibration_runs > 0) return fmt::format("run-to-run sd {:.2f}% over {} runs", row.noise * 100.0, row.calibration_runs);
  return fmt::format("process-level sd {:.2f}% ({} + {} processes; ratio of their geometric means)", row.noise * 100.0,
                     row.baseline_processes, row.current_processes);
}

}  // namespace

void measure_calibrated(Comparison& row, double ratio, const CalibrationEntry& entry) {
  row.ratio = ratio;
  row.noise = entry.log_sd;
  row.aa_noise = std::numeric_limits<double>::quiet_NaN();
  row.calibration_runs = static_cast<int>(entry.values.size());
  row.difference_sd = entry.log_sd * std::sqrt(2.0);
  row.dof = static_cast<double>(row.calibration_runs - 1);
  test_log_ratio(row, ratio);
}

void test_log_ratio(Comparison& row, double ratio) {
  row.ratio = ratio;
  if (!(ratio > 0.0) || !std::isfinite(ratio)) {
    row.verdict = Verdict::kUnsure;
    row.note = "no positive ratio";
    return;
  }
  const double t = std::log(ratio) / spread_of_difference(row);
  row.p_value = 1.0 - stats::student_t_cdf(t, row.dof);
  const double half = stats::student_t_quantile(0.975, row.dof) * spread_of_difference(row);
  row.ci95 = {ratio * std::exp(-half), ratio * std::exp(half)};
  row.verdict = Verdict::kSame;  // until judge_calibrated_rows
}

void judge_calibrated_rows(std::vector<Comparison>& rows, const CompareOptions& options, double alpha,
                           double default_floor) {
  std::vector<Comparison*> calibrated;
  std::vector<double> p_values;
  for (Comparison& row : rows) {
    if (std::isnan(row.p_value)) continue;
    calibrated.push_back(&row);
    p_values.push_back(row.p_value);
  }
  const std::vector<stats::HolmDecision> decisions = stats::holm(p_values, alpha);
  const double m = static_cast<double>(calibrated.size());
  for (std::size_t i = 0; i < calibrated.size(); ++i) {
    Comparison& row = *calibrated[i];
    const stats::HolmDecision& d = decisions[i];
    const double floor = std::isnan(row.floor) ? default_floor : row.floor;  // the row kind's, where it has one
    const double critical = std::exp(stats::student_t_quantile(1.0 - d.level, row.dof) * spread_of_difference(row));
    row.threshold_used = std::max({options.threshold, floor, critical - 1.0});
    const double upper = 1.0 + std::max(options.threshold, floor);
    const double plain = 1.0 + options.threshold;
    const double p_faster = 1.0 - row.p_value;
    row.detectable_slowdown = detectable_slowdown_of_difference(spread_of_difference(row), row.dof,
                                                                static_cast<int>(m), alpha);
    const std::string noise = fmt::format("{}, p {:.2g}, Holm level {:.2g}; catches slowdowns from {:.1f}%",
                                          spread_text(row), row.p_value, d.level, row.detectable_slowdown * 100.0);
    if (d.rejected && row.ratio > upper) {
      row.verdict = Verdict::kSlower;
      row.note = fmt::format("{:.2f}x slower; {}", row.ratio, noise);
    } else if (p_faster <= alpha / m && row.ratio < 1.0 / upper) {
      row.verdict = Verdict::kFaster;
      row.note = fmt::format("{:.2f}x faster; {}", 1.0 / row.ratio, noise);
    } else if (d.rejected && row.ratio > plain) {
      row.verdict = Verdict::kUnsure;
      row.note = fmt::format("{:.2f}x slower by these runs' processes, but within the {:.0f}% a whole run of unchanged "
                             "code of this kind has moved (graphbench calibrate measures the run level); {}",
                             row.ratio, (upper - 1.0) * 100.0, noise);
    } else if (row.ratio > plain) {
      row.verdict = Verdict::kUnsure;
      row.note = fmt::format("{:.2f}x slower but within the run-to-run noise; {}", row.ratio, noise);
    } else {
      row.verdict = Verdict::kSame;
      row.note = noise;
    }
  }
}

}  // namespace graphbench::compare_detail
