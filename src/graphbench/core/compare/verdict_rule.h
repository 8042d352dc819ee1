// The verdict rule of compare.h applied to sample sets (the ratio of medians, its bootstrap
// interval, the noise-aware threshold) and to single values (a training run's total time, its
// final test accuracy). Used by compare.cpp and training_rows.cpp; not part of the public API.
#pragma once

#include "graphbench/core/compare/calibration.h"
#include "graphbench/core/compare/compare.h"

#include <limits>
#include <string>
#include <vector>

namespace graphbench::compare_detail {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One sample set of the comparison, with the words that name it in a note and the run it comes
// from: the sets of one run were sampled in the same rounds and are resampled together.
struct SampleSet {
  enum class Run { kCurrent, kBaseline };
  const std::vector<double>* samples;
  std::string label;  // "baseline", "current eager", ...
  Run run;
  bool current() const { return run == Run::kCurrent; }  // too few samples there is a lost record
  int asked = 0;  // the samples its run asked for (the record's min_samples; 0: unknown)
};

// The process-level basis of an uncalibrated row without an A/A pair (process_rule.h): each side's
// values per process (fewer than kMinProcesses: the file holds one process for the record).
struct ProcessBasis {
  std::vector<double> baseline, current;
  // The run-level floor of the row's kind (core/compare/row_kind.h): no slowdown below it is SLOWER.
  double floor = 0.75;
};

// A row with every number NaN.
Comparison empty_row(const std::string& case_name, const std::string& variant, const std::string& measure,
                     Verdict verdict, std::string note);

// The ratio, interval, noise and verdict of `numerators` over `denominators` (compare.h).
// `aa_noise` (NaN: none) raises the threshold further. With `calibrated` (the row's calibration
// entry), the ratio of medians is measured against it (calibrated_rule.h) instead. A set with fewer
// than min_samples samples: FEW SAMPLES, the ratio of medians without an interval, lost when the
// set is a current one. With `processes` (no calibration entry, no A/A pair): the process-level
// rule where both sides have processes, else the within-run interval against kUnknownRunToRun.
void measure(Comparison& row, const std::vector<SampleSet>& numerators, const std::vector<SampleSet>& denominators,
             const CompareOptions& options, double aa_noise, const CalibrationEntry* calibrated = nullptr,
             const ProcessBasis* processes = nullptr);

// SLOWER, FASTER or SAME for a ratio that has no interval (one value per side): the ratio itself
// against 1 + t and 1 / (1 + t), with t = max(option, `noise_floor`, `aa_noise`).
void judge_point_ratio(Comparison& row, double ratio, double noise_floor, double aa_noise,
                       const CompareOptions& options);

// max(a, b) / min(a, b) - 1: how far apart two positive values are; NaN unless both are > 0.
double relative_spread(double a, double b);

}  // namespace graphbench::compare_detail
