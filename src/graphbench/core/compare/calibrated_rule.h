// The verdict of a step-time row against the gate's calibration (compare --calibration FILE;
// core/compare/calibration.h). Used by compare.cpp and verdict_rule.cpp; not part of the public API.
//
// Rows judged by the files' own processes (core/compare/process_rule.h) go through the same test and
// the same Holm procedure, with their own spread and degrees of freedom.
// Per row, with s the run-to-run standard deviation of log(value) from N calibration runs and r
// the row's ratio (current over baseline, > 1 slower): under no change, log r is the difference
// of two runs, of standard deviation s * sqrt(2), so T = log r / (s sqrt(2)) follows Student's t
// with N - 1 degrees of freedom, and p = P(T_{N-1} >= T) tests "slower". Holm's procedure over
// every calibrated row of the comparison (core/stats/holm.h) holds the chance that a no-change run
// fails the gate anywhere at alpha (the calibration's, default 5%).
//   SLOWER  rejected by Holm and r > 1 + threshold (the option: the smallest slowdown that counts)
//   FASTER  p of "faster" <= alpha / m and r < 1 / (1 + threshold)
//   UNSURE  r > 1 + threshold but not rejected: within the run-to-run noise
//   SAME    otherwise
// threshold_used: the slowdown the row's Holm level makes significant, exp(t s sqrt(2)) - 1 with t
// the t quantile at 1 - level, at least the option. The 95% CI is r exp(+-t_{0.975} s sqrt(2)).
#pragma once

#include "graphbench/core/compare/calibration.h"
#include "graphbench/core/compare/compare.h"

#include <vector>

namespace graphbench::compare_detail {

// Sets the ratio, noise and p-value of a row judged against `entry`; the verdict comes from
// judge_calibrated_rows.
void measure_calibrated(Comparison& row, double ratio, const CalibrationEntry& entry);

// The same test for a row whose difference_sd and dof are set (the process-level rule,
// core/compare/process_rule.h): p-value and 95% CI of `ratio`.
void test_log_ratio(Comparison& row, double ratio);

// Verdicts of the rows measured by measure_calibrated (those with a p-value), Holm over them. A
// row is SLOWER (FASTER) only when its ratio is also beyond 1 + its floor (its inverse): the row's
// own Comparison::floor where set (the row kind's, process-level rule: process_rule.h and
// row_kind.h say why), else `default_floor` (the threshold, for a calibration).
void judge_calibrated_rows(std::vector<Comparison>& rows, const CompareOptions& options, double alpha,
                           double default_floor);

}  // namespace graphbench::compare_detail
