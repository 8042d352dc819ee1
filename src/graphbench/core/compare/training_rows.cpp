// Total time and final test accuracy of training runs (see verdict_rule.h).
#include "graphbench/core/compare/verdict_rule.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace graphbench::compare_detail {

namespace {

bool ok_training(const ResultRecord* r) { return r != nullptr && r->status == RecordStatus::kOk && r->training; }

double total_of(const ResultRecord* r) { return ok_training(r) ? r->training->total_seconds : kNaN; }

double accuracy_of(const ResultRecord* r) {
  if (!ok_training(r) || r->training->epochs.empty()) return kNaN;
  return r->training->epochs.back().test_accuracy;
}

// The total's ratio current / baseline (metric time) or its ratio to eager's within each run
// (metric speedup); NaN when it cannot be formed.
double total_ratio(const ResultRecord* cur, const ResultRecord* base, const ResultRecord* cur_eager,
                   const ResultRecord* base_eager, const CompareOptions& options) {
  if (options.metric == CompareOptions::Metric::kTime) return total_of(cur) / total_of(base);
  return (total_of(cur) / total_of(cur_eager)) / (total_of(base) / total_of(base_eager));
}

Comparison total_row(const TrainingPair& p, const CompareOptions& options, double step_noise) {
  Comparison row = empty_row(p.base->case_name, p.base->variant, kMeasureTotalTime, Verdict::kNotCompared, "");
  row.baseline_median_us = total_of(p.base);
  row.current_median_us = total_of(p.cur);
  const bool speedup = options.metric == CompareOptions::Metric::kSpeedup;
  if (speedup && p.base->variant == "eager") {
    row.note = "eager is the reference of metric speedup";
    return row;
  }
  if (speedup && (!ok_training(p.base_eager) || !ok_training(p.cur_eager))) {
    row.note = fmt::format("no ok eager training record of this case in {}", ok_training(p.base_eager) ? "current" : "baseline");
    return row;
  }
  double aa_noise = kNaN;
  if (ok_training(p.aa)) {
    aa_noise = speedup ? relative_spread(total_of(p.base) / total_of(p.base_eager), total_of(p.aa) / total_of(p.aa_eager))
                       : relative_spread(total_of(p.base), total_of(p.aa));
  }
  // One value per run and no A/A pair: nothing says how far a whole run moves between processes
  // (docs/measuring.md), so only a slowdown beyond kUnknownRunToRun is judged.
  const bool unknown_spread = !std::isfinite(aa_noise);
  const double floor = unknown_spread ? std::max(std::isfinite(step_noise) ? step_noise : 0.0, kUnknownRunToRun) : step_noise;
  judge_point_ratio(row, total_ratio(p.cur, p.base, p.cur_eager, p.base_eager, options), floor, aa_noise, options);
  if (unknown_spread && row.verdict != Verdict::kUnsure) {
    row.note += fmt::format("; no A/A pair: the run-to-run spread of a whole run is unknown, judged against {:.0f}%",
                            kUnknownRunToRun * 100.0);
  }
  return row;
}

Comparison accuracy_row(const TrainingPair& p, const CompareOptions& options) {
  Comparison row = empty_row(p.base->case_name, p.base->variant, kMeasureAccuracy, Verdict::kNotCompared, "");
  const double base = accuracy_of(p.base);
  const double cur = accuracy_of(p.cur);
  row.baseline_median_us = base;
  row.current_median_us = cur;
  if (!std::isfinite(base) || !std::isfinite(cur)) {
    row.verdict = Verdict::kUnsure;
    row.note = fmt::format("no final test accuracy in {}", std::isfinite(base) ? "current" : "baseline");
    return row;
  }
  double tolerance = options.accuracy_tolerance;
  const double aa = accuracy_of(p.aa);
  if (std::isfinite(aa)) {
    row.aa_noise = std::fabs(aa - base);
    tolerance = std::max(tolerance, row.aa_noise);
  }
  row.threshold_used = tolerance;
  const double drop = base - cur;
  if (drop > tolerance) {
    row.verdict = Verdict::kLessAccurate;
    row.note = fmt::format("dropped by {:.4f} ({:.4f} -> {:.4f}), more than the tolerance {:.4f}", drop, base, cur, tolerance);
    return row;
  }
  row.verdict = Verdict::kSame;
  row.note = fmt::format("{:+.4f}, within the tolerance {:.4f} of a drop", cur - base, tolerance);
  return row;
}

}  // namespace

std::vector<Comparison> training_rows(const TrainingPair& pair, const CompareOptions& options, double step_noise) {
  return {total_row(pair, options, step_noise), accuracy_row(pair, options)};
}

}  // namespace graphbench::compare_detail
