// The gate's calibration from N >= 3 no-change runs of one suite (`graphbench calibrate`): per
// record and metric (time: its median; speedup: its median over eager's in the same run), the
// runs' values and their spread on a log scale: log_sd (N - 1) and q95, the 95% quantile of
// |log(v_i / v_j)| over the pairs of runs. `compare --calibration` tests each row against log_sd.
// Only records ok in every run are calibrated. docs/ci.md ("A calibrated gate").
#pragma once

#include "graphbench/core/compare/compare.h"
#include "graphbench/core/record/result_record.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// Do the same code's intervals agree from run to run? Over every pair of no-change runs and every
// record ok in both: whether the two runs' 95% intervals of the median step time and of the
// speedup overlap, by the block bootstrap over rounds, by the independent bootstrap, and as stored
// in the files. Honest intervals overlap in well over 95% of pairs. `graphbench calibrate` prints
// it (docs/measuring.md, intervals).
struct OverlapCount {
  int pairs = 0;        // (pair of runs, record) with an interval on both sides
  int overlapping = 0;  // of them, how many overlap
};

struct IntervalOverlap {
  // *_stored: the intervals the files hold: the speedup's speedup_ci95; the median time's
  // repetitions.median_ci95 in a run merged from --repetitions N (across repetitions), else the
  // median +- rel_noise (the interval the run's stop rule judged).
  OverlapCount time_blocks, time_independent, time_stored;
  OverlapCount speedup_blocks, speedup_independent, speedup_stored;
};

IntervalOverlap interval_overlap(const std::vector<const RunReport*>& runs);

inline constexpr const char* kCalibrationKind = "graphbench gate calibration";
inline constexpr int kCalibrationSchemaVersion = 1;
inline constexpr int kMinCalibrationRuns = 3;
// The slowdown a calibrated gate is expected to catch: the one `calibrate` injects by default
// (--slowdown), and the one compare names the calibrated rows too noisy to catch 95% of the time.
inline constexpr double kExpectedSlowdown = 0.10;

struct CalibrationEntry {
  std::string case_name, variant;
  CompareOptions::Metric metric = CompareOptions::Metric::kTime;
  std::vector<double> values;  // one per run, in the order of GateCalibration::runs
  double log_sd = 0.0;         // standard deviation of log(values) (N - 1)
  double q95 = 0.0;            // 95% quantile of |log(v_i / v_j)| over the pairs of runs
};

// The leave-one-out evaluation of the gate (evaluate_gate), kept with the calibration.
struct GateEvaluation {
  struct Rates {
    int comparisons = 0;   // no-change comparisons (a held-out run against each other run)
    int false_alarms = 0;  // of them, how many failed the gate
    int injections = 0;    // comparisons with one record slowed down
    int caught = 0;        // of them, how many marked that record's row SLOWER
  };
  double slowdown = kExpectedSlowdown;  // the injected slowdown
  Rates time, speedup;
};

struct GateCalibration {
  std::string suite, device, gpu_name;
  std::vector<std::string> runs;         // the files, as given
  std::vector<std::string> git_commits;  // of each run
  double alpha = 0.05;                   // family-wise false-alarm rate over a suite's rows (Holm)
  std::vector<CalibrationEntry> entries;
  std::vector<std::string> uncalibrated;  // "case/variant: why" for records left out
  std::optional<GateEvaluation> evaluation;

  const CalibrationEntry* find(const std::string& case_name, const std::string& variant,
                               CompareOptions::Metric metric) const;
};

// Calibrates from `runs` (named by `names` in errors). InputError (exit 2) with fewer than
// kMinCalibrationRuns runs, runs of different suites or devices, duplicate records or corrupt
// samples, or nothing to calibrate (no record ok in every run); alpha outside (0, 1).
GateCalibration calibrate_gate(const std::vector<const RunReport*>& runs, const std::vector<std::string>& names,
                               double alpha = 0.05);

// The smallest slowdown of this row the calibrated gate catches 95% of the time, as a fraction:
// exp((t_{1 - alpha/rows} + t_{0.95}) s sqrt(2)) - 1, with Holm's strictest level over `rows`
// calibrated rows of its metric and N - 1 degrees of freedom.
double detectable_slowdown(const CalibrationEntry& entry, int rows, double alpha);
// The same from a spread `log_sd` measured over `runs` runs.
double detectable_slowdown(double log_sd, int runs, int rows, double alpha);
// The same for a log-ratio of sd `difference_sd` under no change, with `dof` degrees of freedom.
double detectable_slowdown_of_difference(double difference_sd, double dof, int rows, double alpha);

// The calibration file's text; `overlap` (optional): the A/A interval overlap of the same runs
// (interval_overlap), kept beside it for the record.
std::string calibration_to_json_text(const GateCalibration& calibration, const IntervalOverlap* overlap = nullptr);

// Reads a calibration file; InputError naming the file and the field on anything unexpected
// (another kind of file, a newer schema, fewer than 3 values, a value that is not positive).
GateCalibration read_calibration_file(const std::string& path);

// The calibrated gate on no-change runs, leave-one-out: each run in turn is held out, the gate
// calibrated on the others, and the held-out run compared against each of them, as it is (any
// regression is a false alarm) and with each calibrated record of the metric slowed down by
// `slowdown` (caught when its row reads SLOWER). Both metrics; `graphbench calibrate` runs it with
// 4 runs or more (docs/ci.md).
inline constexpr int kMinEvaluationRuns = kMinCalibrationRuns + 1;

// InputError with fewer than kMinEvaluationRuns runs, a slowdown not in (0, 10), or whatever
// calibrate_gate refuses. `options`: threshold and min_samples of the gate evaluated (metric and
// calibration are set here).
GateEvaluation evaluate_gate(const std::vector<const RunReport*>& runs, const std::vector<std::string>& names,
                             double alpha, const CompareOptions& options, double slowdown = kExpectedSlowdown);

// `report` with every sample of record (case_name, variant) multiplied by `factor`, its summary
// recomputed (as a run of slower code would write it).
void slow_down_record(RunReport& report, const std::string& case_name, const std::string& variant, double factor);

// `graphbench calibrate RUN1 RUN2 RUN3 ... [-o FILE]`: prints the gate's calibration (calibration.h),
// the runs' interval overlap and, with 4 runs or more, the leave-one-out evaluation; with an output
// path, writes them as one JSON file (whole or not at all) for `compare --calibration`. docs/ci.md.
struct CalibrateRequest {
  std::vector<std::string> runs;  // results.json files of the same code
  std::string output;             // "" : print only
  double alpha = 0.05;            // family-wise false-alarm rate over a suite's rows
  double threshold = 0.05;        // the gate's smallest slowdown that counts (compare --threshold)
  int min_samples = 5;            // the gate's --min-samples
  double slowdown = 0.10;         // injected in the evaluation
  bool overlap_only = false;      // --overlap-only: 2 runs or more, only their interval overlap
};

// Reads the runs (InputError: exit 2), prints, writes; returns kExitOk. With overlap_only, prints
// only the interval overlap (of two runs or more, of one suite; no output file).
int run_calibrate(const CalibrateRequest& request, std::ostream& out);

}  // namespace graphbench
