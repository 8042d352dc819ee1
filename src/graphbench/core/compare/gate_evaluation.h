// How the calibrated gate behaves on no-change runs, measured leave-one-out: each run in turn is
// held out, the gate is calibrated on the others (calibration.h) and the held-out run is compared
// against each of them as the current run,
//   - as it is: any regression is a false alarm (false_alarms / comparisons);
//   - with one record slowed down by `slowdown` (its samples multiplied by 1 + slowdown), once for
//     every calibrated record of the metric: caught when that record's row reads SLOWER
//     (caught / injections). Under metric speedup eager is the reference and has no row, so the
//     records slowed down are the other variants'.
// Both metrics are evaluated. `graphbench calibrate` runs it with 4 runs or more (docs/ci.md).
#pragma once

#include "graphbench/core/compare/calibration.h"

#include <string>
#include <vector>

namespace graphbench {

inline constexpr int kMinEvaluationRuns = kMinCalibrationRuns + 1;

// InputError with fewer than kMinEvaluationRuns runs, a slowdown not in (0, 10), or whatever
// calibrate_gate refuses. `options`: threshold and min_samples of the gate evaluated (metric and
// calibration are set here).
GateEvaluation evaluate_gate(const std::vector<const RunReport*>& runs, const std::vector<std::string>& names,
                             double alpha, const CompareOptions& options, double slowdown = kExpectedSlowdown);

// `report` with every sample of record (case_name, variant) multiplied by `factor`, its summary
// recomputed (as a run of slower code would write it).
void slow_down_record(RunReport& report, const std::string& case_name, const std::string& variant, double factor);

}  // namespace graphbench
