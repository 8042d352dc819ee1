// `graphbench calibrate` (see calibration.h).

#include "graphbench/core/compare/calibration.h"
#include "graphbench/core/compare/compare.h"
#include "graphbench/core/base/errors.h"
#include "graphbench/core/report/atomic_file.h"
#include "graphbench/core/report/json_io.h"
#include "graphbench/core/report/markdown_text.h"
#include "graphbench/core/stats/statistics.h"
#include "graphbench/core/stats/block_bootstrap.h"
#include "graphbench/core/stats/bootstrap.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

namespace graphbench {

namespace {

std::string share(int part, int whole) {
  if (whole == 0) return "-";
  return fmt::format("{}/{} ({:.0f}%)", part, whole, 100.0 * part / whole);
}

std::string overlap_line(const char* what, const OverlapCount& c) { return fmt::format("{} {}", what, share(c.overlapping, c.pairs)); }

int rows_of(const GateCalibration& c, CompareOptions::Metric metric) {
  return static_cast<int>(std::count_if(c.entries.begin(), c.entries.end(),
                                        [&](const CalibrationEntry& e) { return e.metric == metric; }));
}

void print_entries(const GateCalibration& c, double slowdown, std::ostream& out) {
  out << "| case | variant | metric | runs | run-to-run sd [95% CI] | 95% of differences within | caught 95% of the time "
         "from | values |\n";
  out << "|---|---|---|---:|---:|---:|---:|---|\n";
  int within_reach = 0;
  for (const CalibrationEntry& e : c.entries) {
    std::string values;
    for (double v : e.values) values += (values.empty() ? "" : ", ") + fmt::format("{:.4g}", v);
    const double catches = detectable_slowdown(e, rows_of(c, e.metric), c.alpha);
    if (catches <= slowdown) ++within_reach;
    // A spread from a few runs is itself uncertain: its 95% interval (chi-square, N - 1 degrees of freedom).
    const stats::Interval sd = stats::sd_interval(e.log_sd, static_cast<int>(e.values.size()));
    out << fmt::format("| {} | {} | {} | {} | {:.2f}% [{:.2g}-{:.2g}%] | {:.2f}% | {:.1f}% | {} |\n",
                       markdown_cell(e.case_name), markdown_cell(e.variant), to_string(e.metric), e.values.size(),
                       e.log_sd * 100.0, sd.low * 100.0, sd.high * 100.0, (std::exp(e.q95) - 1.0) * 100.0,
                       catches * 100.0, values);
  }
  for (const std::string& why : c.uncalibrated) out << "not calibrated: " << markdown_cell(why) << "\n";
  out << fmt::format("Rows whose {:.0f}% slowdown the gate catches 95% of the time (one current run against one "
                     "baseline run, Holm at {} over the rows of a metric): {}\n",
                     slowdown * 100.0, c.alpha, share(within_reach, static_cast<int>(c.entries.size())));
}

void print_rates(const char* metric, const GateEvaluation::Rates& r, std::ostream& out) {
  out << fmt::format("  metric {}: no-change comparisons failing the gate {}; slowdowns caught {}\n", metric,
                     share(r.false_alarms, r.comparisons), share(r.caught, r.injections));
}

void print_overlap(const IntervalOverlap& overlap, std::ostream& out) {
  out << "  median time: " << overlap_line("block bootstrap over rounds", overlap.time_blocks) << "; "
      << overlap_line("independent bootstrap", overlap.time_independent) << "; "
      << overlap_line("as stored in the files", overlap.time_stored) << "\n";
  out << "  speedup:     " << overlap_line("block bootstrap over rounds", overlap.speedup_blocks) << "; "
      << overlap_line("independent bootstrap", overlap.speedup_independent) << "; "
      << overlap_line("as stored in the files", overlap.speedup_stored) << "\n";
}

// --overlap-only: an A/A pair (or more) is enough to ask whether its intervals agree.
int print_overlap_only(const CalibrateRequest& request, const std::vector<const RunReport*>& runs, std::ostream& out) {
  if (runs.size() < 2) {
    throw InputError(fmt::format("calibrate --overlap-only: {} run(s) given, at least 2 no-change runs of the suite are "
                                 "needed",
                                 runs.size()));
  }
  if (!request.output.empty()) {
    throw InputError("calibrate --overlap-only writes no calibration: leave -o out (or --overlap-only, with 3 runs or more)");
  }
  for (std::size_t i = 1; i < runs.size(); ++i) {
    if (runs[i]->environment.suite != runs[0]->environment.suite) {
      throw InputError(fmt::format("{}: a run of suite \"{}\" but {} is of suite \"{}\": the runs must be of one suite",
                                   request.runs[i], runs[i]->environment.suite, request.runs[0],
                                   runs[0]->environment.suite));
    }
  }
  out << fmt::format("Interval overlap between {} no-change runs of suite \"{}\" (pairs of runs x records whose 95% "
                     "intervals overlap):\n",
                     runs.size(), runs[0]->environment.suite);
  print_overlap(interval_overlap(runs), out);
  return kExitOk;
}

}  // namespace

int run_calibrate(const CalibrateRequest& request, std::ostream& out) {
  std::vector<RunReport> reports;
  for (const std::string& path : request.runs) reports.push_back(read_results_file(path));
  std::vector<const RunReport*> runs;
  for (const RunReport& r : reports) runs.push_back(&r);
  if (request.overlap_only) return print_overlap_only(request, runs, out);
  GateCalibration calibration = calibrate_gate(runs, request.runs, request.alpha);
  CompareOptions options;
  options.threshold = request.threshold;
  options.min_samples = request.min_samples;
  if (runs.size() >= static_cast<std::size_t>(kMinEvaluationRuns)) {
    calibration.evaluation = evaluate_gate(runs, request.runs, request.alpha, options, request.slowdown);
  }
  const IntervalOverlap overlap = interval_overlap(runs);

  out << fmt::format("Gate calibration of suite \"{}\" on {} {} from {} no-change runs (Holm over a suite's rows at "
                     "alpha {}):\n\n",
                     calibration.suite, calibration.device, calibration.gpu_name, runs.size(), calibration.alpha);
  print_entries(calibration, request.slowdown, out);
  out << "\nInterval overlap between the runs (pairs of runs x records whose 95% intervals overlap):\n";
  print_overlap(overlap, out);
  if (calibration.evaluation) {
    out << fmt::format("\nLeave-one-out evaluation ({} slowdown injected into one record at a time; threshold {:.0f}%):\n",
                       fmt::format("{:.0f}%", calibration.evaluation->slowdown * 100.0), request.threshold * 100.0);
    print_rates("time", calibration.evaluation->time, out);
    print_rates("speedup", calibration.evaluation->speedup, out);
  } else {
    out << fmt::format("\nNo leave-one-out evaluation: it needs at least {} runs.\n", kMinEvaluationRuns);
  }
  if (!request.output.empty()) {
    const std::string output = calibration_output_of(request.output);
    write_file_atomically(output, calibration_to_json_text(calibration, &overlap));
    out << "\nWrote " << output << "\n";
  }
  return kExitOk;
}

// Overlap of the intervals of no-change runs (see calibration.h).
namespace {

struct RecordIntervals {
  stats::Interval time_blocks, time_independent;
  std::optional<stats::Interval> time_stored, speedup_blocks, speedup_independent, speedup_stored;
};

using Key = std::pair<std::string, std::string>;  // (case, variant)

std::map<Key, RecordIntervals> intervals_of(const RunReport& run) {
  std::map<Key, const ResultRecord*> index;
  for (const ResultRecord& r : run.records) index[{r.case_name, r.variant}] = &r;
  std::map<Key, RecordIntervals> out;
  const std::vector<double> one{1.0};
  for (const ResultRecord& r : run.records) {
    if (!has_ok_samples(&r)) continue;
    RecordIntervals in;
    in.time_blocks = stats::median_interval_by_rounds(r.samples_us);
    in.time_independent = stats::ratio_of_medians(r.samples_us, one).ci95;
    if (r.repetitions && r.repetitions->median_ci95) {
      in.time_stored = *r.repetitions->median_ci95;
    } else if (r.stats && std::isfinite(r.rel_noise) && r.rel_noise > 0.0) {
      in.time_stored = stats::Interval{r.stats->median * (1.0 - r.rel_noise), r.stats->median * (1.0 + r.rel_noise)};
    }
    const auto eager = index.find({r.case_name, "eager"});
    if (r.variant != "eager" && eager != index.end() && has_ok_samples(eager->second)) {
      const std::vector<double>& e = eager->second->samples_us;
      in.speedup_blocks = stats::ratio_by_rounds({stats::RunSamples{{&e}, {&r.samples_us}}}).ci95;
      in.speedup_independent = stats::ratio_of_medians(e, r.samples_us).ci95;
      if (r.speedup_ci95) in.speedup_stored = *r.speedup_ci95;
    }
    out[{r.case_name, r.variant}] = in;
  }
  return out;
}

void count_pair(OverlapCount& c, const stats::Interval& a, const stats::Interval& b) {
  ++c.pairs;
  if (a.low <= b.high && b.low <= a.high) ++c.overlapping;
}

void count_pair(OverlapCount& c, const std::optional<stats::Interval>& a, const std::optional<stats::Interval>& b) {
  if (a && b) count_pair(c, *a, *b);
}

}  // namespace

IntervalOverlap interval_overlap(const std::vector<const RunReport*>& runs) {
  std::vector<std::map<Key, RecordIntervals>> per_run;
  for (const RunReport* run : runs) per_run.push_back(intervals_of(*run));
  IntervalOverlap o;
  for (std::size_t i = 0; i < per_run.size(); ++i) {
    for (std::size_t j = i + 1; j < per_run.size(); ++j) {
      for (const auto& [key, a] : per_run[i]) {
        const auto it = per_run[j].find(key);
        if (it == per_run[j].end()) continue;
        const RecordIntervals& b = it->second;
        count_pair(o.time_blocks, a.time_blocks, b.time_blocks);
        count_pair(o.time_independent, a.time_independent, b.time_independent);
        count_pair(o.time_stored, a.time_stored, b.time_stored);
        count_pair(o.speedup_blocks, a.speedup_blocks, b.speedup_blocks);
        count_pair(o.speedup_independent, a.speedup_independent, b.speedup_independent);
        count_pair(o.speedup_stored, a.speedup_stored, b.speedup_stored);
      }
    }
  }
  return o;
}

}  // namespace graphbench
