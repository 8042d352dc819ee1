// The calibrated gate on no-change runs, leave-one-out: each run in turn is held out, the gate
// calibrated on the others, and the held-out run compared against each of them, as it is (any
// regression is a false alarm) and with each calibrated record of the metric slowed down by
// `slowdown` (caught when its row reads SLOWER). Both metrics; `graphbench calibrate` runs it with
// 4 runs or more (docs/ci.md).
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
