// Leave-one-out evaluation of the calibrated gate (see gate_evaluation.h).
#include "graphbench/core/compare/gate_evaluation.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/stats/statistics.h"

#include <fmt/format.h>

namespace graphbench {

namespace {

using Metric = CompareOptions::Metric;

bool injection_caught(const CompareResult& result, const CalibrationEntry& entry) {
  for (const Comparison& row : result.rows) {
    if (row.case_name == entry.case_name && row.variant == entry.variant && row.measure == kMeasureStepTime) {
      return row.verdict == Verdict::kSlower;
    }
  }
  return false;
}

// The held-out run `current` against each other run, as it is and with each record slowed down.
void evaluate_held_out(const std::vector<const RunReport*>& others, const RunReport& current,
                       const GateCalibration& calibration, CompareOptions options, Metric metric, double slowdown,
                       GateEvaluation::Rates& rates) {
  options.metric = metric;
  options.calibration = &calibration;
  RunReport slowed = current;
  for (const RunReport* baseline : others) {
    ++rates.comparisons;
    if (compare_reports(*baseline, current, options).exit_code() != kExitOk) ++rates.false_alarms;
    for (const CalibrationEntry& entry : calibration.entries) {
      if (entry.metric != metric) continue;
      slowed = current;
      slow_down_record(slowed, entry.case_name, entry.variant, 1.0 + slowdown);
      ++rates.injections;
      if (injection_caught(compare_reports(*baseline, slowed, options), entry)) ++rates.caught;
    }
  }
}

}  // namespace

void slow_down_record(RunReport& report, const std::string& case_name, const std::string& variant, double factor) {
  for (ResultRecord& r : report.records) {
    if (r.case_name != case_name || r.variant != variant) continue;
    for (double& x : r.samples_us) x *= factor;
    if (!r.samples_us.empty()) r.stats = stats::summarize(r.samples_us);
  }
}

GateEvaluation evaluate_gate(const std::vector<const RunReport*>& runs, const std::vector<std::string>& names,
                             double alpha, const CompareOptions& options, double slowdown) {
  if (runs.size() < static_cast<std::size_t>(kMinEvaluationRuns)) {
    throw InputError(fmt::format("calibrate: evaluating the gate leave-one-out needs at least {} runs (each held out "
                                 "in turn, the gate calibrated on the other {} or more), got {}",
                                 kMinEvaluationRuns, kMinCalibrationRuns, runs.size()));
  }
  if (!(slowdown > 0.0 && slowdown < 10.0)) {
    throw InputError(fmt::format("--slowdown: expected a fraction in (0, 10), e.g. 10% or 0.1, got {}", slowdown));
  }
  GateEvaluation evaluation;
  evaluation.slowdown = slowdown;
  for (std::size_t held = 0; held < runs.size(); ++held) {
    std::vector<const RunReport*> others;
    std::vector<std::string> other_names;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (i == held) continue;
      others.push_back(runs[i]);
      other_names.push_back(names[i]);
    }
    const GateCalibration calibration = calibrate_gate(others, other_names, alpha);
    evaluate_held_out(others, *runs[held], calibration, options, Metric::kTime, slowdown, evaluation.time);
    evaluate_held_out(others, *runs[held], calibration, options, Metric::kSpeedup, slowdown, evaluation.speedup);
  }
  return evaluation;
}

}  // namespace graphbench
