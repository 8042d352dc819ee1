// The gate's rules (compare.h), internal to compare/: the within-run rule on sample sets
// (verdict_rule.cpp); the calibrated and process-level t tests of log(ratio), Holm over the rows
// (calibrated_rule.cpp, process_rule.cpp); the rows a pair adds: a training run's total time and
// accuracy (training_rows.cpp), device time and counts (count_rows.cpp). Why, and what each rule
// measured on our GPUs: docs/measuring.md ("The compare gate") and docs/ci.md.
#pragma once

#include "graphbench/core/compare/calibration.h"
#include "graphbench/core/compare/compare.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace graphbench::compare_detail {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The largest move of unchanged code between processes or runs on our GPUs was 1.54x (gelu-small's
// eager step): without a calibration no slowdown below 75% is SLOWER (a doubled step still is).
inline constexpr double kUnknownRunToRun = 0.75;
// The process-level rule's family-wise false-alarm rate (Holm): on the H100's eight ci runs split
// into runs of four, 1 of 70 no-change comparisons failed at 5%, none at 1%.
inline constexpr double kProcessRuleAlpha = 0.01;
inline constexpr int kMinProcesses = 2;  // a side's processes for the process-level rule

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

// An uncalibrated row without an A/A pair: each side's values per process (process_values) and the
// run-level floor of the row's kind (row_kind.h), below which no slowdown is SLOWER.
struct ProcessBasis {
  std::vector<double> baseline, current;
  double floor = 0.75;
};

// A row with every number NaN.
Comparison empty_row(const std::string& case_name, const std::string& variant, const std::string& measure,
                     Verdict verdict, std::string note);

// The ratio, interval, noise and verdict of `numerators` over `denominators`: against `calibrated`
// (the row's calibration entry) where given; else by the processes where `processes` holds
// kMinProcesses on both sides; else the within-run interval, its threshold raised by `aa_noise`
// (NaN: none) and by the kind's floor where `processes` is given. A set with fewer samples than
// asked: FEW SAMPLES, the ratio of medians without an interval, lost when the set is a current one.
void measure(Comparison& row, const std::vector<SampleSet>& numerators, const std::vector<SampleSet>& denominators,
             const CompareOptions& options, double aa_noise, const CalibrationEntry* calibrated = nullptr,
             const ProcessBasis* processes = nullptr);

// SLOWER, FASTER or SAME for a ratio that has no interval (one value per side): the ratio itself
// against 1 + t and 1 / (1 + t), with t = max(option, `noise_floor`, `aa_noise`).
void judge_point_ratio(Comparison& row, double ratio, double noise_floor, double aa_noise,
                       const CompareOptions& options);

// max(a, b) / min(a, b) - 1: how far apart two positive values are; NaN unless both are > 0.
double relative_spread(double a, double b);

// The calibrated rule: T = log r / (s sqrt(2)) follows Student's t with N - 1 degrees of freedom
// under no change (s: the calibration's log_sd over N runs); p = P(T_{N-1} >= T) tests "slower".
// Sets the ratio, noise and p-value of a row; the verdict comes from judge_calibrated_rows.
void measure_calibrated(Comparison& row, double ratio, const CalibrationEntry& entry);

// The same test for a row whose difference_sd and dof are set: p-value and 95% CI of `ratio`.
void test_log_ratio(Comparison& row, double ratio);

// Verdicts of the rows with a p-value, Holm over them at `alpha`: SLOWER when rejected and beyond 1 +
// its floor (Comparison::floor where set, else `default_floor`), FASTER likewise below, UNSURE when
// beyond the threshold but within the floor or not rejected, else SAME.
void judge_calibrated_rows(std::vector<Comparison>& rows, const CompareOptions& options, double alpha,
                           double default_floor);

// One value per ok process of a merged record: metric time, its median step time; metric speedup,
// 1 / speedup_vs_eager. Empty for a record of one process.
std::vector<double> process_values(const ResultRecord& record, CompareOptions::Metric metric);

// A two-sample t test of both sides' log process values (pooled sd, nb + nc - 2 degrees of freedom):
// ratio, spread, p-value and 95% CI; the verdict comes from judge_calibrated_rows.
void measure_processes(Comparison& row, const std::vector<double>& baseline, const std::vector<double>& current);

// A training record ok in both runs, with its case's eager records (for --metric speedup) and its
// A/A records; any of the last four may be null.
struct TrainingPair {
  const ResultRecord* base = nullptr;
  const ResultRecord* cur = nullptr;
  const ResultRecord* base_eager = nullptr;
  const ResultRecord* cur_eager = nullptr;
  const ResultRecord* aa = nullptr;
  const ResultRecord* aa_eager = nullptr;
};

// Its total-time and final-accuracy rows; `step_noise`: the step-time row's within-run noise (NaN:
// none), a floor of the total's threshold.
std::vector<Comparison> training_rows(const TrainingPair& pair, const CompareOptions& options, double step_noise);

// The kernel profile's busy device time per step, SLOWER past kDeviceTimeFloor whatever the wall
// time did; nothing when either record lacks a profile with a positive device time.
std::optional<Comparison> device_time_row(const ResultRecord& base, const ResultRecord& cur,
                                          const CompareOptions& options);

// Kernels, copies and launches per step, graphs per step, graph nodes and kernel nodes, graph pool
// bytes, compared exactly: CHANGED names each that moved, else SAME; nothing when none is in common.
std::optional<Comparison> counts_row(const ResultRecord& base, const ResultRecord& cur);

}  // namespace graphbench::compare_detail
