// The gate's calibration from no-change runs, its file, and its leave-one-out evaluation (see calibration.h).
#include "graphbench/core/compare/calibration.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/json/json_checker.h"
#include "graphbench/core/json/json_text.h"
#include "graphbench/core/stats/statistics.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace graphbench {

namespace {

using json = nlohmann::json;
using Metric = CompareOptions::Metric;

double record_median(const ResultRecord& r) { return stats::percentile(r.samples_us, 50.0); }

void check_runs(const std::vector<const RunReport*>& runs, const std::vector<std::string>& names) {
  if (runs.size() < static_cast<std::size_t>(kMinCalibrationRuns)) {
    throw InputError(fmt::format("calibrate: {} run(s) given, at least {} no-change runs of the suite are needed "
                                 "(the spread of run-to-run differences cannot be told from fewer; --overlap-only compares the "
                                 "intervals of two)",
                                 runs.size(), kMinCalibrationRuns));
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    check_unique_records(*runs[i], names[i]);
    check_samples(*runs[i], names[i]);
    const Environment& first = runs[0]->environment;
    const Environment& e = runs[i]->environment;
    if (e.suite != first.suite) {
      throw InputError(fmt::format("{}: a run of suite \"{}\" but {} is of suite \"{}\": calibrate from runs of one suite",
                                   names[i], e.suite, names[0], first.suite));
    }
    if (e.device != first.device || e.gpu_name != first.gpu_name) {
      throw InputError(fmt::format("{}: ran on {} but {} on {}: calibrate from runs on one device", names[i],
                                   device_text(e), names[0], device_text(first)));
    }
  }
}

CalibrationEntry make_entry(const ResultRecord& r, Metric metric) {
  CalibrationEntry entry;
  entry.case_name = r.case_name;
  entry.variant = r.variant;
  entry.metric = metric;
  return entry;
}

}  // namespace

const CalibrationEntry* GateCalibration::find(const std::string& case_name, const std::string& variant,
                                              Metric metric) const {
  for (const CalibrationEntry& e : entries) {
    if (e.case_name == case_name && e.variant == variant && e.metric == metric) return &e;
  }
  return nullptr;
}

double detectable_slowdown(const CalibrationEntry& entry, int rows, double alpha) {
  return detectable_slowdown(entry.log_sd, static_cast<int>(entry.values.size()), rows, alpha);
}

double detectable_slowdown(double log_sd, int runs, int rows, double alpha) {
  return detectable_slowdown_of_difference(log_sd * std::sqrt(2.0), static_cast<double>(runs) - 1.0, rows, alpha);
}

double detectable_slowdown_of_difference(double difference_sd, double dof, int rows, double alpha) {
  if (!(dof >= 1.0) || rows < 1) return std::numeric_limits<double>::quiet_NaN();
  const double level = alpha / static_cast<double>(rows);
  const double t = stats::student_t_quantile(1.0 - level, dof) + stats::student_t_quantile(0.95, dof);
  return std::exp(t * difference_sd) - 1.0;
}

static void fill_spread(CalibrationEntry& entry) {
  const std::size_t n = entry.values.size();
  std::vector<double> logs;
  for (double v : entry.values) logs.push_back(std::log(v));
  double mean = 0.0;
  for (double l : logs) mean += l;
  mean /= static_cast<double>(n);
  double squares = 0.0;
  for (double l : logs) squares += (l - mean) * (l - mean);
  entry.log_sd = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : 0.0;
  std::vector<double> differences;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) differences.push_back(std::abs(logs[i] - logs[j]));
  }
  entry.q95 = differences.empty() ? 0.0 : stats::percentile(differences, 95.0);
}

GateCalibration calibrate_gate(const std::vector<const RunReport*>& runs, const std::vector<std::string>& names,
                               double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) {
    throw InputError(fmt::format("--alpha: expected a number in (0, 1), got {}", alpha));
  }
  check_runs(runs, names);
  GateCalibration calibration;
  calibration.alpha = alpha;
  calibration.suite = runs[0]->environment.suite;
  calibration.device = runs[0]->environment.device;
  calibration.gpu_name = runs[0]->environment.gpu_name;
  calibration.runs = names;
  for (const RunReport* run : runs) calibration.git_commits.push_back(run->environment.git_commit);

  for (const ResultRecord& first : runs[0]->records) {
    CalibrationEntry time = make_entry(first, Metric::kTime);
    CalibrationEntry speedup = make_entry(first, Metric::kSpeedup);
    std::string why;
    for (std::size_t i = 0; i < runs.size() && why.empty(); ++i) {
      const ResultRecord* r = runs[i]->find(first.case_name, first.variant);
      if (!has_ok_samples(r)) {
        why = r == nullptr ? fmt::format("absent from {}", names[i])
                           : fmt::format("{} in {}", to_string(r->status), names[i]);
        continue;
      }
      time.values.push_back(record_median(*r));
      const ResultRecord* eager = runs[i]->find(first.case_name, "eager");
      if (first.variant != "eager" && has_ok_samples(eager)) speedup.values.push_back(record_median(*r) / record_median(*eager));
    }
    if (!why.empty()) {
      calibration.uncalibrated.push_back(fmt::format("{}/{}: {}", first.case_name, first.variant, why));
      continue;
    }
    fill_spread(time);
    calibration.entries.push_back(time);
    if (speedup.values.size() == runs.size()) {
      fill_spread(speedup);
      calibration.entries.push_back(speedup);
    }
  }
  if (calibration.entries.empty()) {
    throw InputError(fmt::format("calibrate: no record is ok in every one of the {} runs: nothing to calibrate",
                                 runs.size()));
  }
  return calibration;
}

static json overlap_json(const OverlapCount& c) {
  return {{"pairs", c.pairs},
          {"overlapping", c.overlapping},
          {"fraction", c.pairs > 0 ? json(double(c.overlapping) / c.pairs) : json(nullptr)}};
}

std::string calibration_to_json_text(const GateCalibration& c, const IntervalOverlap* overlap) {
  json doc;
  doc["kind"] = kCalibrationKind;
  doc["schema_version"] = kCalibrationSchemaVersion;
  doc["suite"] = c.suite;
  doc["device"] = c.device;
  doc["gpu_name"] = c.gpu_name;
  doc["runs"] = c.runs;
  doc["git_commits"] = c.git_commits;
  doc["alpha"] = c.alpha;
  doc["correction"] = "holm";
  json entries = json::array();
  for (const CalibrationEntry& e : c.entries) {
    entries.push_back({{"case", e.case_name},
                       {"variant", e.variant},
                       {"metric", to_string(e.metric)},
                       {"values", e.values},
                       {"log_sd", e.log_sd},
                       {"q95", e.q95}});
  }
  doc["records"] = entries;
  doc["uncalibrated"] = c.uncalibrated;
  if (c.evaluation) {
    json rates;
    for (const auto& [name, r] : {std::pair{"time", &c.evaluation->time}, std::pair{"speedup", &c.evaluation->speedup}}) {
      rates[name] = {{"comparisons", r->comparisons},
                     {"false_alarms", r->false_alarms},
                     {"false_alarm_rate", r->comparisons > 0 ? json(double(r->false_alarms) / r->comparisons) : json(nullptr)},
                     {"injections", r->injections},
                     {"caught", r->caught},
                     {"detection_rate", r->injections > 0 ? json(double(r->caught) / r->injections) : json(nullptr)}};
    }
    doc["evaluation"] = {{"method", "leave-one-out"}, {"slowdown", c.evaluation->slowdown}, {"metrics", rates}};
  } else {
    doc["evaluation"] = nullptr;
  }
  if (overlap != nullptr) {
    doc["interval_overlap"] = {
        {"time", {{"block_bootstrap", overlap_json(overlap->time_blocks)},
                  {"independent_bootstrap", overlap_json(overlap->time_independent)},
                  {"as_stored", overlap_json(overlap->time_stored)}}},
        {"speedup", {{"block_bootstrap", overlap_json(overlap->speedup_blocks)},
                     {"independent_bootstrap", overlap_json(overlap->speedup_independent)},
                     {"as_stored", overlap_json(overlap->speedup_stored)}}}};
  } else {
    doc["interval_overlap"] = nullptr;
  }
  return doc.dump(2) + "\n";
}

GateCalibration read_calibration_file(const std::string& path) {
  const json doc = parse_json_text(read_text_file(path, "calibration file"), path);
  const JsonChecker in(path);
  in.check_object(doc, "");
  if (!doc.contains("kind")) {
    in.fail("", fmt::format("no \"kind\": not a calibration file (expected one written by graphbench calibrate, "
                            "\"kind\": \"{}\")",
                            kCalibrationKind));
  }
  for (const char* key : {"schema_version", "records"}) in.check_required_key(doc, "", key);
  if (in.read_string(doc["kind"], "/kind") != kCalibrationKind) {
    in.fail_expected("/kind", fmt::format("\"{}\" (a file written by graphbench calibrate)", kCalibrationKind),
                     doc["kind"]);
  }
  const std::int64_t schema = in.read_positive_int(doc["schema_version"], "/schema_version");
  if (schema > kCalibrationSchemaVersion) {
    in.fail("/schema_version", fmt::format("version {} is newer than this graphbench reads ({})", schema,
                                           kCalibrationSchemaVersion));
  }
  GateCalibration c;
  if (doc.contains("suite")) c.suite = in.read_string(doc["suite"], "/suite");
  if (doc.contains("device")) c.device = in.read_string(doc["device"], "/device");
  if (doc.contains("gpu_name")) c.gpu_name = in.read_string(doc["gpu_name"], "/gpu_name");
  if (doc.contains("alpha")) c.alpha = in.read_number_in(doc["alpha"], "/alpha", 1e-9, 0.999999);
  const json& records = doc["records"];
  if (!records.is_array()) in.fail_expected("/records", "an array", records);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::string at = json_pointer_append("/records", i);
    const json& r = records[i];
    in.check_object(r, at);
    for (const char* key : {"case", "variant", "metric", "values"}) in.check_required_key(r, at, key);
    CalibrationEntry e;
    e.case_name = in.read_non_empty_string(r["case"], at + "/case");
    e.variant = in.read_non_empty_string(r["variant"], at + "/variant");
    e.metric = in.read_choice(r["metric"], at + "/metric", {"time", "speedup"}) == "speedup" ? Metric::kSpeedup
                                                                                             : Metric::kTime;
    const json& values = r["values"];
    if (!values.is_array() || values.size() < static_cast<std::size_t>(kMinCalibrationRuns)) {
      in.fail_expected(at + "/values", fmt::format("an array of at least {} positive numbers (one per run)",
                                                   kMinCalibrationRuns),
                       values);
    }
    for (std::size_t k = 0; k < values.size(); ++k) {
      e.values.push_back(in.read_positive_number(values[k], json_pointer_append(at + "/values", k)));
    }
    fill_spread(e);  // from the values, so that the file cannot disagree with itself
    if (c.find(e.case_name, e.variant, e.metric) != nullptr) {
      in.fail(at, fmt::format("a second entry for case \"{}\", variant \"{}\", metric {}", e.case_name, e.variant,
                              to_string(e.metric)));
    }
    c.entries.push_back(e);
  }
  if (c.entries.empty()) in.fail("/records", "no entry: nothing calibrated");
  return c;
}

namespace {

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
