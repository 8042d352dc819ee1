// Verdicts of the regression gate: matching records, checking that the files can be compared,
// and the rows of each pair (the rule is documented in compare.h; its arithmetic in
// verdict_rule.cpp, the training rows in training_rows.cpp).
#include "graphbench/core/compare/compare.h"

#include "graphbench/core/clocks/clock_warnings.h"
#include "graphbench/core/compare/row_kind.h"
#include "graphbench/core/compare/verdict_rule.h"
#include "graphbench/core/base/errors.h"
#include "graphbench/core/stats/statistics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <map>
#include <optional>
#include <utility>

namespace graphbench {

using namespace compare_detail;

namespace {

constexpr const char* kEagerVariant = "eager";

using RecordKey = std::pair<std::string, std::string>;  // (case, variant)
using RecordIndex = std::map<RecordKey, const ResultRecord*>;

RecordIndex index_records(const RunReport& report) {
  RecordIndex index;
  for (const ResultRecord& r : report.records) index.emplace(RecordKey{r.case_name, r.variant}, &r);
  return index;
}

const ResultRecord* find(const RecordIndex& index, const std::string& case_name, const std::string& variant) {
  const auto it = index.find({case_name, variant});
  return it == index.end() ? nullptr : it->second;
}

const ResultRecord* find(const RecordIndex* index, const std::string& case_name, const std::string& variant) {
  return index == nullptr ? nullptr : find(*index, case_name, variant);
}

double median_of(const ResultRecord& r) {
  if (!r.samples_us.empty()) return stats::percentile(r.samples_us, 50.0);
  return r.stats ? r.stats->median : kNaN;
}

// The within-run ratio variant / eager of a case, from medians; NaN when it cannot be formed.
double speedup_ratio(const ResultRecord& record, const RecordIndex& index) {
  const ResultRecord* eager = find(index, record.case_name, kEagerVariant);
  if (eager == nullptr || eager->status != RecordStatus::kOk) return kNaN;
  return median_of(record) / median_of(*eager);
}

// The row's calibration entry under the options' metric, or null (no calibration, or the record is not in it).
const CalibrationEntry* calibration_of(const ResultRecord& base, const CompareOptions& options) {
  return options.calibration == nullptr ? nullptr
                                        : options.calibration->find(base.case_name, base.variant, options.metric);
}

SampleSet sample_set(const ResultRecord& r, const std::string& label, SampleSet::Run run) {
  return {&r.samples_us, label, run, r.min_samples.value_or(0)};
}

void compare_speedup(Comparison& row, const ResultRecord& base, const ResultRecord& cur, const RecordIndex& base_index,
                     const RecordIndex& cur_index, const CompareOptions& options, double aa_noise,
                     const ProcessBasis* processes) {
  if (base.variant == kEagerVariant) {
    row.note = "eager is the reference of metric speedup";
    return;
  }
  const ResultRecord* base_eager = find(base_index, base.case_name, kEagerVariant);
  const ResultRecord* cur_eager = find(cur_index, cur.case_name, kEagerVariant);
  for (const auto& [eager, run] : {std::pair{base_eager, "baseline"}, std::pair{cur_eager, "current"}}) {
    if (eager == nullptr || eager->status != RecordStatus::kOk) {
      row.note = fmt::format("no ok eager record of this case in {}", run);
      return;
    }
  }
  using Run = SampleSet::Run;
  measure(row, {sample_set(cur, "current", Run::kCurrent), sample_set(*base_eager, "baseline eager", Run::kBaseline)},
          {sample_set(*cur_eager, "current eager", Run::kCurrent), sample_set(base, "baseline", Run::kBaseline)},
          options, aa_noise, calibration_of(base, options), processes);
}

// The run-to-run noise of one record from the A/A pair (NaN without a usable A/A record).
double aa_noise_of(const ResultRecord& base, const RecordIndex& base_index, const RecordIndex* aa_index,
                   const CompareOptions& options) {
  const ResultRecord* aa = find(aa_index, base.case_name, base.variant);
  if (!has_ok_samples(aa)) return kNaN;
  if (options.metric == CompareOptions::Metric::kSpeedup) {
    return relative_spread(speedup_ratio(base, base_index), speedup_ratio(*aa, *aa_index));
  }
  return relative_spread(median_of(base), median_of(*aa));
}

// The step-time row of a pair, then (training records) the total-time and accuracy rows.
std::vector<Comparison> compare_pair(const ResultRecord& base, const ResultRecord& cur, const RecordIndex& base_index,
                                     const RecordIndex& cur_index, const RecordIndex* aa_index,
                                     const CompareOptions& options) {
  Comparison row = empty_row(base.case_name, base.variant, kMeasureStepTime, Verdict::kNotCompared, "");
  row.baseline_median_us = median_of(base);
  row.current_median_us = median_of(cur);
  if (base.status == RecordStatus::kOk && cur.status == RecordStatus::kFailed) {
    row.verdict = Verdict::kFailed;
    row.note = "failed in current" + (cur.reason.empty() ? "" : ": " + cur.reason);
    return {row};
  }
  if (base.status == RecordStatus::kOk && cur.status == RecordStatus::kSkipped) {
    row.verdict = Verdict::kSkipped;
    row.lost = true;
    row.note = "ok in baseline, skipped in current" + (cur.reason.empty() ? "" : ": " + cur.reason);
    return {row};
  }
  if (base.status != RecordStatus::kOk || cur.status != RecordStatus::kOk) {
    row.note = fmt::format("baseline {}, current {}", status_text(base), status_text(cur));
    return {row};
  }
  if (base.samples_us.empty() && cur.samples_us.empty()) {
    row.note = is_training(cur) ? "no per-step samples on either side (results written before training runs kept them)"
                                : fmt::format("no samples_us on either side (kind {})", to_string(cur.kind));
  } else {
    const double aa_noise = aa_noise_of(base, base_index, aa_index, options);
    // Neither a calibration nor an A/A pair: the files' own processes, held to the run-level floor
    // of the row's kind (row_kind.h).
    std::optional<ProcessBasis> processes;
    if (const CalibrationEntry* entry = calibration_of(base, options)) {
      row.rule = fmt::format("calibration ({} runs)", entry->values.size());
    } else if (aa_index != nullptr) {
      row.rule = "A/A pair";
    } else {
      std::vector<const ResultRecord*> judged{&base, &cur};
      if (options.metric == CompareOptions::Metric::kSpeedup && base.variant != kEagerVariant) {
        judged.push_back(find(base_index, base.case_name, kEagerVariant));
        judged.push_back(find(cur_index, cur.case_name, kEagerVariant));
      }
      const RowKindJudgement kind = judge_row_kind(judged);
      row.row_kind = to_string(kind.kind);
      row.floor = kind.floor;
      row.rule = fmt::format("{} floor {:.0f}%", row.row_kind, kind.floor * 100.0);
      processes = ProcessBasis{process_values(base, options.metric), process_values(cur, options.metric), kind.floor};
      row.row_kind_why = kind.why;
    }
    const ProcessBasis* basis = processes ? &*processes : nullptr;
    if (options.metric == CompareOptions::Metric::kSpeedup) {
      compare_speedup(row, base, cur, base_index, cur_index, options, aa_noise, basis);
    } else {
      measure(row, {sample_set(cur, "current", SampleSet::Run::kCurrent)},
              {sample_set(base, "baseline", SampleSet::Run::kBaseline)}, options, aa_noise, calibration_of(base, options),
              basis);
    }
  }
  std::vector<Comparison> rows{row};
  if (base.training && cur.training) {
    TrainingPair pair{&base, &cur, find(base_index, base.case_name, kEagerVariant),
                      find(cur_index, cur.case_name, kEagerVariant), find(aa_index, base.case_name, base.variant),
                      find(aa_index, base.case_name, kEagerVariant)};
    for (Comparison& extra : training_rows(pair, options, row.noise)) rows.push_back(std::move(extra));
  }
  if (auto device = device_time_row(base, cur, options)) rows.push_back(std::move(*device));
  if (auto counts = counts_row(base, cur)) rows.push_back(std::move(*counts));
  return rows;
}

void check_options(const CompareOptions& options) {
  if (!(options.threshold >= 0.0) || !std::isfinite(options.threshold)) {
    throw InputError(fmt::format("--threshold: expected a non-negative number, got {}", options.threshold));
  }
  if (options.min_samples < 1) {
    throw InputError(fmt::format("--min-samples: expected an integer >= 1, got {}", options.min_samples));
  }
  if (!(options.accuracy_tolerance >= 0.0 && options.accuracy_tolerance <= 1.0)) {
    throw InputError(fmt::format("--accuracy-tolerance: expected a number in [0, 1], got {}", options.accuracy_tolerance));
  }
}

void add_environment_warnings(const RunReport& baseline, const RunReport& current, const CompareOptions& options,
                              const CompareSources& sources, CompareResult& result) {
  const Environment& b = baseline.environment;
  const Environment& c = current.environment;
  if (b.device != c.device || b.gpu_name != c.gpu_name) {
    std::string warning = fmt::format("the runs used different devices: baseline {} {}, current {} {}", b.device,
                                      b.gpu_name, c.device, c.gpu_name);
    if (options.metric == CompareOptions::Metric::kTime) {
      warning += "; absolute times are not comparable, consider --metric speedup";
    }
    result.warnings.push_back(warning);
  }
  if (!b.suite.empty() && !c.suite.empty() && b.suite != c.suite) {
    result.warnings.push_back(fmt::format("the runs are of different suites: baseline \"{}\", current \"{}\"", b.suite, c.suite));
  }
  for (const auto& [report, name] : {std::pair{&baseline, sources.baseline}, std::pair{&current, sources.current}}) {
    if (report->interrupted) {
      result.warnings.push_back(fmt::format("{} is an interrupted run ({}): the cases it did not finish are absent",
                                            name, report->interrupted_by.empty() ? "a signal" : report->interrupted_by));
    }
  }
}

// Records a calibration leaves out are judged by the uncalibrated rule.
void add_calibration_warnings(const CompareOptions& options, CompareResult& result) {
  std::size_t uncalibrated = 0;
  for (const Comparison& row : result.rows) {
    if (row.measure == kMeasureStepTime && row.calibration_runs == 0 && row.verdict != Verdict::kNotCompared &&
        row.verdict != Verdict::kMissing && row.verdict != Verdict::kNew && row.verdict != Verdict::kFailed) {
      ++uncalibrated;
    }
  }
  if (uncalibrated > 0) {
    result.warnings.push_back(fmt::format("{} row(s) not in the calibration (metric {}): judged by the uncalibrated rule",
                                          uncalibrated, to_string(options.metric)));
  }
  // A SAME on a row whose spread hides a 10% slowdown says little: name those rows.
  std::vector<std::string> blind;
  for (const Comparison& row : result.rows) {
    if (row.detectable_slowdown > kExpectedSlowdown) {
      blind.push_back(fmt::format("{}/{} from {:.0f}%", row.case_name, row.variant, row.detectable_slowdown * 100.0));
    }
  }
  if (!blind.empty()) {
    result.warnings.push_back(fmt::format("{} calibrated row(s) catch a {:.0f}% slowdown less than 95% of the time (their "
                                          "run-to-run spread is wider; the smallest slowdown each catches): {}",
                                          blind.size(), kExpectedSlowdown * 100.0, fmt::join(blind, ", ")));
  }
}

// Without a calibration or an A/A pair: how the rows were judged, said once.
void add_process_warnings(CompareResult& result) {
  std::size_t by_processes = 0;
  std::vector<std::string> single;
  for (const Comparison& row : result.rows) {
    if (row.measure != kMeasureStepTime || row.calibration_runs > 0) continue;
    if (row.baseline_processes > 0) {
      ++by_processes;
    } else if (row.note.find("one process on a side") != std::string::npos) {
      single.push_back(row.case_name + "/" + row.variant);
    }
  }
  if (!single.empty()) {
    result.warnings.push_back(fmt::format(
        "{} row(s) have one process on a side (no process-level interval in the files): their within-run intervals know "
        "nothing of the run-to-run noise, so they are SLOWER only beyond the floor of their kind; run both with "
        "--repetitions N (N >= 3), or calibrate the gate on this machine (graphbench calibrate; compare --calibration): {}",
        single.size(), fmt::join(single, ", ")));
  }
  if (by_processes > 0) {
    result.warnings.push_back(fmt::format("{} row(s) judged by the files' processes (a t test of the processes' values, "
                                          "Holm over the rows at 1%), each SLOWER only past the run-level floor of its "
                                          "kind (device-bound {:.0f}%, mixed {:.0f}%, host-bound or unknown {:.0f}%); a "
                                          "calibration of this machine (graphbench calibrate, beside the baseline) "
                                          "judges with more runs",
                                          by_processes, kDeviceBoundFloor * 100.0, kMixedFloor * 100.0,
                                          kHostBoundFloor * 100.0));
  }
}

// Rows judged against their kind's floor say which kind and why; rows that were not judged (too
// few samples, nothing to compare) name no rule.
void explain_floors(std::vector<Comparison>& rows) {
  for (Comparison& row : rows) {
    if (row.measure != kMeasureStepTime) continue;
    const bool judged = row.verdict == Verdict::kSame || row.verdict == Verdict::kSlower ||
                        row.verdict == Verdict::kFaster || (row.verdict == Verdict::kUnsure && std::isfinite(row.ratio));
    if (judged) {
      if (!row.row_kind_why.empty()) row.note = row.note.empty() ? row.row_kind_why : row.note + "; " + row.row_kind_why;
    } else {
      row.rule.clear();
      row.floor = kNaN;
    }
  }
}

bool compared(const Comparison& row) {
  switch (row.verdict) {
    case Verdict::kFewSamples:
    case Verdict::kSkipped:
    case Verdict::kMissing:
    case Verdict::kNew:
    case Verdict::kNotCompared: return false;
    default: return true;
  }
}

std::size_t records_in_common(const RunReport& a, const RecordIndex& b) {
  std::size_t count = 0;
  for (const ResultRecord& r : a.records) count += find(b, r.case_name, r.variant) != nullptr ? 1 : 0;
  return count;
}

}  // namespace

const char* to_string(CompareOptions::Metric metric) {
  return metric == CompareOptions::Metric::kSpeedup ? "speedup" : "time";
}

bool CompareResult::is_regression(const Comparison& row) const {
  return row.verdict == Verdict::kSlower || row.verdict == Verdict::kFailed || row.verdict == Verdict::kLessAccurate ||
         (row.verdict == Verdict::kChanged && fail_on_counts) || (row.lost && !allow_missing);
}

std::vector<const Comparison*> CompareResult::regressions() const {
  std::vector<const Comparison*> out;
  for (const Comparison& row : rows) {
    if (is_regression(row)) out.push_back(&row);
  }
  return out;
}

int CompareResult::exit_code() const { return regressions().empty() ? kExitOk : kExitFailure; }

void check_unique_records(const RunReport& report, const std::string& source_name) {
  std::map<RecordKey, std::size_t> first;
  for (std::size_t i = 0; i < report.records.size(); ++i) {
    const ResultRecord& r = report.records[i];
    const auto [it, inserted] = first.emplace(RecordKey{r.case_name, r.variant}, i);
    if (!inserted) {
      throw InputError(fmt::format("{}: /records/{}: duplicate record for case \"{}\", variant \"{}\" (first at "
                                   "/records/{})",
                                   source_name, i, r.case_name, r.variant, it->second));
    }
  }
}

// An ok benchmark record is a timed one: its samples are what the gate compares. A record that says ok but
// carries no samples, or a median its samples do not give, is a corrupt file (a gate must never
// pass because the data went missing).
void check_samples(const RunReport& report, const std::string& source_name) {
  for (std::size_t i = 0; i < report.records.size(); ++i) {
    const ResultRecord& r = report.records[i];
    if (r.status != RecordStatus::kOk) continue;
    // Training records gate their totals and accuracy too; files written before their per-step
    // samples were kept have none.
    if (r.samples_us.empty() && r.kind != graphbench::RecordKind::kTraining) {
      throw InputError(fmt::format("{}: /records/{}/samples_us: an ok record (case \"{}\", variant \"{}\") without "
                                   "samples: a corrupt or truncated file",
                                   source_name, i, r.case_name, r.variant));
    }
    for (std::size_t k = 0; k < r.samples_us.size(); ++k) {
      const double v = r.samples_us[k];
      if (!(std::isfinite(v) && v > 0.0)) {
        throw InputError(fmt::format("{}: /records/{}/samples_us/{}: expected a positive time in an ok record, got {} "
                                     "(a corrupt or hand-edited file)",
                                     source_name, i, k, std::isnan(v) ? "null" : fmt::format("{}", v)));
      }
    }
    if (r.stats && !r.samples_us.empty()) {
      const double from_samples = stats::percentile(r.samples_us, 50.0);
      if (!(std::abs(r.stats->median - from_samples) <= 1e-6 * from_samples)) {
        throw InputError(fmt::format("{}: /records/{}/median_us: {} is not the median of the record's {} samples ({}) "
                                     "(case \"{}\", variant \"{}\"): a corrupt or hand-edited file",
                                     source_name, i, r.stats->median, r.samples_us.size(), from_samples, r.case_name,
                                     r.variant));
      }
    }
  }
}

static void check_comparable(const RunReport& baseline, const RunReport& current, const RunReport* aa_baseline,
                      const CompareSources& sources) {
  if (baseline.records.empty()) throw InputError(fmt::format("{}: no records: nothing to compare against", sources.baseline));
  if (current.records.empty()) throw InputError(fmt::format("{}: no records: nothing to compare", sources.current));
  if (records_in_common(current, index_records(baseline)) == 0) {
    throw InputError(fmt::format("{}: no record (case and variant) in common with {}: nothing to compare "
                                 "(suites \"{}\" and \"{}\")",
                                 sources.current, sources.baseline, current.environment.suite, baseline.environment.suite));
  }
  if (aa_baseline == nullptr) return;
  const Environment& b = baseline.environment;
  const Environment& a = aa_baseline->environment;
  if (!a.suite.empty() && !b.suite.empty() && a.suite != b.suite) {
    throw InputError(fmt::format("{}: --aa is a run of suite \"{}\" but {} is of suite \"{}\": the A/A pair must be two "
                                 "runs of the same suite",
                                 sources.aa_baseline, a.suite, sources.baseline, b.suite));
  }
  if (a.device != b.device || a.gpu_name != b.gpu_name) {
    throw InputError(fmt::format("{}: --aa ran on {} but {} on {}: the A/A pair must be two runs on the same device",
                                 sources.aa_baseline, device_text(a), sources.baseline, device_text(b)));
  }
  if (records_in_common(*aa_baseline, index_records(baseline)) == 0) {
    throw InputError(fmt::format("{}: --aa has no record (case and variant) in common with {}", sources.aa_baseline,
                                 sources.baseline));
  }
}

static void check_calibration_matches(const GateCalibration& c, const RunReport& baseline, const CompareSources& sources) {
  const Environment& b = baseline.environment;
  if (!c.suite.empty() && !b.suite.empty() && c.suite != b.suite) {
    throw InputError(fmt::format("{}: /suite: the calibration is of suite \"{}\" but {} is of suite \"{}\": a calibration "
                                 "describes the runs of one suite",
                                 sources.calibration, c.suite, sources.baseline, b.suite));
  }
  if (c.device != b.device || c.gpu_name != b.gpu_name) {
    throw InputError(fmt::format("{}: /{}: the calibration was measured on {} but {} ran on {}: a calibration describes "
                                 "one device",
                                 sources.calibration, c.device != b.device ? "device" : "gpu_name",
                                 c.gpu_name.empty() ? c.device : c.device + " " + c.gpu_name, sources.baseline,
                                 device_text(b)));
  }
}

CompareResult compare_reports(const RunReport& baseline, const RunReport& current, const CompareOptions& options,
                              const RunReport* aa_baseline, const CompareSources& sources) {
  check_options(options);
  if (options.calibration != nullptr && aa_baseline != nullptr) {
    throw InputError("--aa and --calibration both set the run-to-run noise: give one of them (the calibration, "
                     "from several no-change runs, supersedes one A/A pair)");
  }
  check_unique_records(baseline, sources.baseline);
  check_unique_records(current, sources.current);
  check_samples(baseline, sources.baseline);
  check_samples(current, sources.current);
  if (aa_baseline != nullptr) {
    check_unique_records(*aa_baseline, sources.aa_baseline);
    check_samples(*aa_baseline, sources.aa_baseline);
  }
  check_comparable(baseline, current, aa_baseline, sources);
  if (options.calibration != nullptr) check_calibration_matches(*options.calibration, baseline, sources);
  const RecordIndex base_index = index_records(baseline);
  const RecordIndex cur_index = index_records(current);
  const RecordIndex aa_index = aa_baseline != nullptr ? index_records(*aa_baseline) : RecordIndex{};

  CompareResult result;
  result.allow_missing = options.allow_missing;
  result.fail_on_counts = options.fail_on_counts;
  add_environment_warnings(baseline, current, options, sources, result);
  if (auto clocks = clock_comparison_line(baseline, current)) result.warnings.push_back(std::move(*clocks));
  for (const ResultRecord& base : baseline.records) {
    const ResultRecord* cur = find(cur_index, base.case_name, base.variant);
    if (cur == nullptr) {
      Comparison row = empty_row(base.case_name, base.variant, kMeasureStepTime, Verdict::kMissing, "in baseline only");
      row.baseline_median_us = median_of(base);
      row.lost = base.status == RecordStatus::kOk;
      if (row.lost) row.note = "ok in baseline, absent from current";
      result.rows.push_back(row);
      continue;
    }
    for (Comparison& row :
         compare_pair(base, *cur, base_index, cur_index, aa_baseline != nullptr ? &aa_index : nullptr, options)) {
      result.rows.push_back(std::move(row));
    }
  }
  for (const ResultRecord& cur : current.records) {
    if (find(base_index, cur.case_name, cur.variant) != nullptr) continue;
    Comparison row = empty_row(cur.case_name, cur.variant, kMeasureStepTime, Verdict::kNew, "in current only");
    row.current_median_us = median_of(cur);
    result.rows.push_back(row);
  }
  if (options.calibration != nullptr) {
    judge_calibrated_rows(result.rows, options, options.calibration->alpha, options.threshold);
  } else {
    judge_calibrated_rows(result.rows, options, kProcessRuleAlpha, kUnknownRunToRun);
  }
  explain_floors(result.rows);
  if (options.calibration != nullptr) {
    add_calibration_warnings(options, result);
  } else if (aa_baseline == nullptr) {
    add_process_warnings(result);
  }
  bool any_compared = false;
  for (const Comparison& row : result.rows) any_compared = any_compared || compared(row);
  if (!any_compared && result.regressions().empty()) {
    throw InputError(fmt::format("{} and {}: no record could be compared (every record in common was not ok in the "
                                 "baseline, has no samples, or was lost by the current run with --allow-missing): a gate "
                                 "that compared nothing cannot pass",
                                 sources.baseline, sources.current));
  }
  return result;
}

}  // namespace graphbench
