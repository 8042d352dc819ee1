// The CI regression gate behind `graphbench compare BASELINE CURRENT`. Per (case, variant) matched
// by name: the ratio of medians (metric time: current over baseline; metric speedup: each run's
// variant over its own eager, so drift between runs cancels) with a 95% interval, judged against a
// threshold never below the noise measured: within the run, of an A/A pair (--aa), of a
// calibration's runs (--calibration), or of the files' processes held to the floor of the row's
// kind. A record ok in the baseline and lost now is a regression unless allow_missing; a gate that
// compared nothing fails (InputError, exit 2). Verdicts, rules and exit codes: docs/measuring.md
// ("The compare gate") and docs/ci.md.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/core/stats/statistics.h"

#include <iosfwd>
#include <limits>
#include <string>
#include <vector>

namespace graphbench {

struct GateCalibration;  // core/compare/calibration.h

struct CompareOptions {
  double threshold = 0.05;  // relative slow-down tolerated, before the noise floor
  enum class Metric { kTime, kSpeedup } metric = Metric::kTime;
  bool allow_missing = false;  // --allow-missing: records ok in the baseline and lost now pass
  int min_samples = 5;  // fewer samples on either side: FEW SAMPLES, no interval
  double accuracy_tolerance = 0.01;  // training: a drop of final test accuracy tolerated (absolute)
  // --calibration: step-time rows are judged against the run-to-run spread of no-change runs.
  const GateCalibration* calibration = nullptr;
  bool fail_on_counts = false;  // --fail-on-counts: a CHANGED counts row is a regression
};

const char* to_string(CompareOptions::Metric metric);

enum class Verdict {
  kFaster, kSame, kSlower, kUnsure, kFewSamples, kFailed, kLessAccurate, kSkipped, kMissing, kNew, kNotCompared,
  kChanged  // a counts row whose counts differ (a regression only with fail_on_counts)
};
// In Verdict's order.
template <> struct KindNames<Verdict> {
  static constexpr const char* names[] = {"FASTER", "SAME", "SLOWER", "UNSURE", "FEW SAMPLES", "FAILED", "LESS ACCURATE",
                                          "SKIPPED", "MISSING", "NEW", "NOT COMPARED", "CHANGED"};
};

// Measures of a row (Comparison::measure).
inline constexpr const char* kMeasureStepTime = "step time";
inline constexpr const char* kMeasureTotalTime = "total time";
inline constexpr const char* kMeasureAccuracy = "test accuracy";
inline constexpr const char* kMeasureDeviceTime = "device time";  // the kernel profile's busy time
inline constexpr const char* kMeasureCounts = "counts";             // compared exactly

// One row per (case, variant) and measure. Values that do not apply (no ratio for MISSING, ...)
// are NaN. baseline_median_us and current_median_us hold the measure's values: per-step
// microseconds, a training run's total seconds, or its final test accuracy.
struct Comparison {
  std::string case_name, variant;
  std::string measure = kMeasureStepTime;
  Verdict verdict = Verdict::kNotCompared;
  double ratio = 0.0;  // > 1: slower
  stats::Interval ci95;
  double threshold_used = 0.0;
  double noise = 0.0;     // within-run noise
  double aa_noise = 0.0;  // run-to-run noise from the A/A baseline pair (NaN without one)
  double baseline_median_us = 0.0, current_median_us = 0.0;
  std::string note;
  bool lost = false;  // ok in the baseline, lost now: a regression unless allow_missing
  // Judged by a t test (calibration, processes): the one-sided p-value of "slower", and the
  // calibration's runs (noise is then the run-to-run sd of log values); else NaN, 0.
  double p_value = std::numeric_limits<double>::quiet_NaN();
  int calibration_runs = 0;
  // And the smallest slowdown the gate catches 95% of the time (calibration.h), the sd of log(ratio)
  // under no change and its degrees of freedom; NaN elsewhere.
  double detectable_slowdown = std::numeric_limits<double>::quiet_NaN();
  double difference_sd = std::numeric_limits<double>::quiet_NaN();
  double dof = std::numeric_limits<double>::quiet_NaN();
  // Judged by the processes of each file: how many on each side; else 0.
  int baseline_processes = 0, current_processes = 0;
  // Which rule judged the row ("device-bound floor 6%", "calibration (8 runs)", "counts, exact") and,
  // for uncalibrated step-time rows, the row's kind (row_kind.h; "" elsewhere) and its floor.
  std::string rule;
  std::string row_kind;
  std::string row_kind_why;  // the kind's evidence and floor, added to the note once judged
  double floor = std::numeric_limits<double>::quiet_NaN();
};

struct CompareResult {
  std::vector<Comparison> rows;       // baseline order, then the NEW records in current order
  bool allow_missing = false;         // from the options: whether lost records are not regressions
  bool fail_on_counts = false;        // from the options: whether a CHANGED counts row is a regression
  std::vector<std::string> warnings;  // e.g. the two runs used different GPUs

  bool is_regression(const Comparison& row) const;
  std::vector<const Comparison*> regressions() const;
  int exit_code() const;  // kExitOk or kExitFailure
};

// InputError when `report` holds two records of one (case, variant); `source_name` names it.
void check_unique_records(const RunReport& report, const std::string& source_name);

// InputError when an ok record holds a sample that is not a positive finite time (null, 0,
// negative): graphbench never writes one, so the file is corrupt.
void check_samples(const RunReport& report, const std::string& source_name);

// The names of the compared files, for messages.
struct CompareSources {
  std::string baseline = "baseline";
  std::string current = "current";
  std::string aa_baseline = "A/A baseline";
  std::string calibration = "calibration";
};

// InputError on bad options, duplicate or corrupt records, files that cannot be compared (nothing
// in common; an A/A baseline or calibration of another suite or device). `aa_baseline` (may be null): a second baseline
// run of the same code, whose difference from `baseline` sets the run-to-run noise floor.
CompareResult compare_reports(const RunReport& baseline, const RunReport& current,
                              const CompareOptions& options, const RunReport* aa_baseline = nullptr,
                              const CompareSources& sources = {});

// A Markdown table of every row, then one "REGRESSION: ..." line per regression and a summary.
std::string render_comparison(const CompareResult& result, const CompareOptions& options);

// `graphbench compare --json FILE`: the verdicts for machines, as google/benchmark's compare.py
// --dump_to_json: the files, options, exit code, warnings and one row per (case, variant, measure);
// figures that do not apply (NaN) are null. docs/ci.md.
nlohmann::json comparison_to_json(const CompareResult& result, const CompareOptions& options,
                                  const CompareSources& sources);

// Reads the files (InputError: exit 2), prints the comparison and returns 0 or 1. The optional
// paths ("": none): the second baseline, a `graphbench calibrate` file, where the JSON verdicts go.
int run_compare(const std::string& baseline_path, const std::string& current_path,
                const CompareOptions& options, std::ostream& out, const std::string& aa_baseline_path = "",
                const std::string& calibration_path = "", const std::string& json_path = "");

// What `graphbench compare` accepts as a run: a results.json file, or the folder a run wrote.
// `path` itself when it is not a folder; DIR/results.json for a folder DIR. InputError naming the
// folder when it holds no results.json.
std::string results_file_of(const std::string& path);

// The name a calibration has beside the baseline it calibrates (`graphbench calibrate -o DIR`),
// where `graphbench compare` finds it without --calibration.
inline constexpr const char* kCalibrationFileName = "gate-calibration.json";

// DIR/gate-calibration.json for the results file DIR/results.json when that file exists, else "".
std::string calibration_beside(const std::string& results_file);

// `path` itself, or PATH/gate-calibration.json when `path` is an existing folder: where
// `graphbench calibrate -o PATH` writes.
std::string calibration_output_of(const std::string& path);

}  // namespace graphbench
