// Tests of the gate's calibration from no-change runs (core/compare/calibration.h), the calibrated
// verdicts with Holm's correction (core/compare/calibrated_rule.cpp), the leave-one-out evaluation
// (core/compare/calibration.h, evaluate_gate) and `graphbench calibrate`'s output and file, on synthetic runs whose
// run-to-run spread is given.
#include "support/catch.h"
#include "support/compare_rows.h"
#include "support/error_of.h"
#include "support/records.h"
#include "support/scratch_dir.h"

#include "graphbench/core/compare/calibration.h"
#include "graphbench/core/compare/compare.h"
#include "graphbench/core/report/json_io.h"
#include "graphbench/core/stats/random.h"
#include "graphbench/core/stats/statistics.h"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using graphbench::CalibrationEntry;
using graphbench::CompareOptions;
using graphbench::GateCalibration;
using graphbench::RunReport;
using graphbench::Verdict;
using graphbench::testing::input_error_of;
using graphbench::testing::row_of;

namespace {

using Metric = CompareOptions::Metric;

// 31 samples whose median is exactly `median` (11 at 0.99x, 10 at 1x, 10 at 1.01x, interleaved).
std::vector<double> samples_around(double median) {
  std::vector<double> out;
  for (int i = 0; i < 31; ++i) out.push_back(median * (1.0 + 0.01 * ((i % 3) - 1)));
  return out;
}

// A run of suite "ci" with two cases of eager and graph; `factors` multiplies each record's
// median: {a/eager, a/graph, b/eager, b/graph}.
RunReport run_with(const std::vector<double>& factors, const std::string& suite = "ci") {
  RunReport report;
  report.environment.suite = suite;
  report.environment.device = "cuda";
  report.environment.gpu_name = "Test GPU";
  const double medians[] = {100.0, 30.0, 500.0, 80.0};
  const char* cases[] = {"a", "a", "b", "b"};
  const char* variants[] = {"eager", "graph", "eager", "graph"};
  for (int i = 0; i < 4; ++i) {
    auto r = graphbench::testing::benchmark_record(cases[i], variants[i], "cuda");
    r.samples_us = samples_around(medians[i] * factors[static_cast<std::size_t>(i)]);
    r.stats = graphbench::stats::summarize(r.samples_us);
    report.records.push_back(r);
  }
  return report;
}

// Standard normal draws (Box-Muller over splitmix64): the same on every platform.
double normal(graphbench::stats::SplitMix64& rng) {
  const double u1 = (static_cast<double>(rng.next() >> 11) + 0.5) / 9007199254740992.0;
  const double u2 = static_cast<double>(rng.next() >> 11) / 9007199254740992.0;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

// `count` no-change runs: every record moves from run to run by a log-normal factor of sd `sd`.
std::vector<RunReport> no_change_runs(int count, double sd, std::uint64_t seed) {
  graphbench::stats::SplitMix64 rng(seed);
  std::vector<RunReport> runs;
  for (int k = 0; k < count; ++k) {
    std::vector<double> factors;
    for (int i = 0; i < 4; ++i) factors.push_back(std::exp(sd * normal(rng)));
    runs.push_back(run_with(factors));
  }
  return runs;
}

std::vector<const RunReport*> pointers(const std::vector<RunReport>& runs) {
  std::vector<const RunReport*> out;
  for (const RunReport& r : runs) out.push_back(&r);
  return out;
}

std::vector<std::string> names_of(std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back("run" + std::to_string(i) + ".json");
  return out;
}

}  // namespace

TEST_CASE("student t: cumulative distribution and quantiles match the tables", "[stats][calibration]") {
  using graphbench::stats::student_t_cdf;
  using graphbench::stats::student_t_quantile;
  CHECK(student_t_cdf(0.0, 5) == Approx(0.5));
  CHECK(student_t_cdf(2.015048, 5) == Approx(0.95).epsilon(1e-6));
  CHECK(student_t_cdf(-1.812461, 10) == Approx(0.05).epsilon(1e-5));
  CHECK(student_t_cdf(1.0, 1) == Approx(0.75));  // Cauchy: 1/2 + atan(1)/pi
  CHECK(student_t_quantile(0.975, 7) == Approx(2.364624).epsilon(1e-6));
  CHECK(student_t_quantile(0.975, 1) == Approx(12.706205).epsilon(1e-6));
  CHECK(student_t_quantile(0.05, 30) == Approx(-1.697261).epsilon(1e-6));
  CHECK(std::isnan(student_t_cdf(1.0, 0)));
  CHECK(std::isnan(student_t_quantile(1.0, 5)));
}

TEST_CASE("holm: step-down rejections and levels", "[stats][calibration]") {
  const double nan = std::nan("");
  const auto d = graphbench::stats::holm({0.01, 0.04, 0.03, 0.005, nan}, 0.05);
  // Sorted: 0.005 <= 0.05/4, 0.01 <= 0.05/3, then 0.03 > 0.05/2 stops it: 0.03 and 0.04 kept.
  CHECK(d[3].rejected);
  CHECK(d[3].level == Approx(0.0125));
  CHECK(d[0].rejected);
  CHECK(d[0].level == Approx(0.05 / 3));
  CHECK_FALSE(d[2].rejected);
  CHECK(d[2].level == Approx(0.025));
  CHECK_FALSE(d[1].rejected);  // 0.04 <= 0.05 but after the stop
  CHECK(d[1].level == Approx(0.05));
  CHECK_FALSE(d[4].rejected);  // NaN takes no part
  CHECK(std::isnan(d[4].level));
  // Holm rejects both where Bonferroni (0.025 each) would reject only the first.
  const auto both = graphbench::stats::holm({0.012, 0.04}, 0.05);
  CHECK(both[0].rejected);
  CHECK(both[1].rejected);
  CHECK(graphbench::stats::holm({}, 0.05).empty());
}

TEST_CASE("calibrate: per record and metric, the spread of the runs' values", "[calibration]") {
  const std::vector<RunReport> runs = {run_with({1.00, 1.00, 1, 1}), run_with({1.02, 1.01, 1, 1}),
                                       run_with({0.98, 1.03, 1, 1})};
  const GateCalibration c = graphbench::calibrate_gate(pointers(runs), names_of(3));
  CHECK(c.suite == "ci");
  CHECK(c.entries.size() == 6);  // 4 records under time, the 2 graphs under speedup
  const CalibrationEntry* time = c.find("a", "eager", Metric::kTime);
  REQUIRE(time != nullptr);
  CHECK(time->values == std::vector<double>{100.0, 102.0, 98.0});
  const double l0 = std::log(100.0), l1 = std::log(102.0), l2 = std::log(98.0);
  const double mean = (l0 + l1 + l2) / 3;
  CHECK(time->log_sd ==
        Approx(std::sqrt(((l0 - mean) * (l0 - mean) + (l1 - mean) * (l1 - mean) + (l2 - mean) * (l2 - mean)) / 2)));
  // Pairwise |differences| ln(1.02), ln(100/98), ln(102/98): the 95% quantile interpolates the top two.
  const double sorted[] = {std::log(1.02), std::log(100.0 / 98.0), std::log(102.0 / 98.0)};
  CHECK(time->q95 == Approx(sorted[1] + 0.9 * (sorted[2] - sorted[1])));
  const CalibrationEntry* speedup = c.find("a", "graph", Metric::kSpeedup);
  REQUIRE(speedup != nullptr);
  CHECK(speedup->values[1] == Approx(30.3 / 102.0));
  CHECK(c.find("a", "eager", Metric::kSpeedup) == nullptr);  // eager is the reference
  CHECK(c.find("b", "graph", Metric::kSpeedup)->log_sd == 0.0);
}

TEST_CASE("calibrate: bad input is refused with the file and what was expected", "[calibration]") {
  const std::vector<RunReport> two = {run_with({1, 1, 1, 1}), run_with({1, 1, 1, 1})};
  CHECK_THAT(input_error_of([&] { graphbench::calibrate_gate(pointers(two), names_of(2)); }),
             Catch::Contains("2 run(s) given, at least 3 no-change runs"));
  std::vector<RunReport> mixed = {run_with({1, 1, 1, 1}), run_with({1, 1, 1, 1}), run_with({1, 1, 1, 1}, "blog")};
  CHECK_THAT(input_error_of([&] { graphbench::calibrate_gate(pointers(mixed), names_of(3)); }),
             Catch::Contains("run2.json: a run of suite \"blog\" but run0.json is of suite \"ci\""));
  mixed[2] = run_with({1, 1, 1, 1});
  mixed[2].environment.gpu_name = "Other GPU";
  CHECK_THAT(input_error_of([&] { graphbench::calibrate_gate(pointers(mixed), names_of(3)); }),
             Catch::Contains("run2.json: ran on cuda Other GPU but run0.json on cuda Test GPU"));
  const std::vector<RunReport> three = no_change_runs(3, 0.01, 1);
  CHECK_THAT(input_error_of([&] {
               graphbench::evaluate_gate(pointers(three), names_of(3), 0.05, CompareOptions{});
             }),
             Catch::Contains("needs at least 4 runs"));
  CHECK_THAT(input_error_of([&] { graphbench::calibrate_gate(pointers(three), names_of(3), 1.5); }),
             Catch::Contains("--alpha: expected a number in (0, 1)"));
  // A record failed in one run is left out, named.
  std::vector<RunReport> one_failed = no_change_runs(3, 0.01, 2);
  one_failed[1].records[1].status = graphbench::RecordStatus::kFailed;
  const GateCalibration c = graphbench::calibrate_gate(pointers(one_failed), names_of(3));
  CHECK(c.find("a", "graph", Metric::kTime) == nullptr);
  REQUIRE(c.uncalibrated.size() == 1);
  CHECK(c.uncalibrated[0] == "a/graph: failed in run1.json");
}

TEST_CASE("calibrated compare: a slowdown beyond the run-to-run noise is SLOWER, no change is SAME", "[calibration]") {
  const std::vector<RunReport> runs = no_change_runs(8, 0.01, 3);
  const GateCalibration c = graphbench::calibrate_gate(pointers(runs), names_of(8));
  CompareOptions options;
  options.calibration = &c;
  const RunReport& baseline = runs[0];

  const auto same = graphbench::compare_reports(baseline, runs[1], options);
  CHECK(same.exit_code() == 0);
  CHECK(row_of(same, "a", "graph").calibration_runs == 8);
  CHECK(row_of(same, "a", "graph").p_value >= 0.0);

  RunReport slower = runs[1];
  graphbench::slow_down_record(slower, "a", "graph", 1.10);
  const auto caught = graphbench::compare_reports(baseline, slower, options);
  CHECK(row_of(caught, "a", "graph").verdict == Verdict::kSlower);
  CHECK(caught.exit_code() == 1);
  CHECK(row_of(caught, "a", "graph").threshold_used >= 0.05);
  CHECK(row_of(caught, "a", "graph").ci95.low < row_of(caught, "a", "graph").ratio);

  RunReport faster = runs[1];
  graphbench::slow_down_record(faster, "b", "eager", 1.0 / 1.2);
  CHECK(row_of(graphbench::compare_reports(baseline, faster, options), "b", "eager").verdict == Verdict::kFaster);

  // Under metric speedup the graph made 10% slower is caught too; eager stays the reference.
  options.metric = Metric::kSpeedup;
  const auto by_speedup = graphbench::compare_reports(baseline, slower, options);
  CHECK(row_of(by_speedup, "a", "graph").verdict == Verdict::kSlower);
  CHECK(row_of(by_speedup, "a", "eager").verdict == Verdict::kNotCompared);

  // A/A and calibration both set the noise: refused.
  CHECK_THAT(input_error_of([&] { graphbench::compare_reports(baseline, runs[1], options, &runs[2]); }),
             Catch::Contains("--aa and --calibration"));
}

TEST_CASE("calibrated compare: a slowdown within a noisy record's run-to-run spread is UNSURE, not a failure",
          "[calibration]") {
  // Record b/eager moves 8% from run to run: a 10% slowdown there cannot be told from noise.
  graphbench::stats::SplitMix64 rng(4);
  std::vector<RunReport> runs;
  for (int k = 0; k < 6; ++k) runs.push_back(run_with({1, 1, std::exp(0.08 * normal(rng)), 1}));
  const GateCalibration c = graphbench::calibrate_gate(pointers(runs), names_of(6));
  CompareOptions options;
  options.calibration = &c;
  RunReport slower = runs[1];
  graphbench::slow_down_record(slower, "b", "eager", 1.10 * runs[0].records[2].stats->median / runs[1].records[2].stats->median);
  const auto result = graphbench::compare_reports(runs[0], slower, options);
  CHECK(row_of(result, "b", "eager").ratio == Approx(1.10));
  CHECK(row_of(result, "b", "eager").verdict == Verdict::kUnsure);
  CHECK(result.exit_code() == 0);
}

TEST_CASE("calibrated compare: each row says the smallest slowdown it catches, the blind rows are named",
          "[calibration]") {
  // b/eager moves 8% from run to run, the other records 0.5%.
  graphbench::stats::SplitMix64 rng(7);
  std::vector<RunReport> runs;
  for (int k = 0; k < 8; ++k) {
    runs.push_back(run_with({std::exp(0.005 * normal(rng)), std::exp(0.005 * normal(rng)), std::exp(0.08 * normal(rng)),
                             std::exp(0.005 * normal(rng))}));
  }
  const GateCalibration c = graphbench::calibrate_gate(pointers(runs), names_of(8));
  CompareOptions options;
  options.calibration = &c;
  const auto result = graphbench::compare_reports(runs[0], runs[1], options);
  const auto& noisy = row_of(result, "b", "eager");
  const auto& steady = row_of(result, "a", "graph");
  // (t_{1 - 0.05/4, 7} + t_{0.95, 7}) s sqrt(2), the four calibrated rows of metric time.
  CHECK(noisy.detectable_slowdown == Approx(graphbench::detectable_slowdown(*c.find("b", "eager", Metric::kTime), 4, 0.05)));
  CHECK(noisy.detectable_slowdown > 0.10);
  CHECK(steady.detectable_slowdown < 0.10);
  CHECK_THAT(noisy.note, Catch::Contains("catches slowdowns from"));
  std::size_t blind_warnings = 0;
  for (const std::string& w : result.warnings) {
    if (w.find("catch a 10% slowdown less than 95% of the time") == std::string::npos) continue;
    ++blind_warnings;
    CHECK_THAT(w, Catch::Contains("1 calibrated row(s)"));
    CHECK_THAT(w, Catch::Contains("b/eager from"));
    CHECK_THAT(w, !Catch::Contains("a/graph"));
  }
  CHECK(blind_warnings == 1);
  // In the verdicts' JSON: the figure on calibrated rows.
  const auto doc = graphbench::comparison_to_json(result, options, graphbench::CompareSources{});
  bool found = false;
  for (const auto& r : doc["rows"]) {
    if (r["case"] != "b" || r["variant"] != "eager") continue;
    found = true;
    CHECK(r["detectable_slowdown"].get<double>() == Approx(noisy.detectable_slowdown));
  }
  CHECK(found);
  // Without a calibration no row has the figure.
  CHECK(std::isnan(row_of(graphbench::compare_reports(runs[0], runs[1], CompareOptions{}), "b", "eager").detectable_slowdown));
}

TEST_CASE("gate evaluation: no-change runs rarely fail, a 10% slowdown of any record is caught", "[calibration]") {
  const std::vector<RunReport> runs = no_change_runs(10, 0.01, 5);
  const auto e = graphbench::evaluate_gate(pointers(runs), names_of(10), 0.05, CompareOptions{});
  CHECK(e.slowdown == 0.10);
  // Each run held out against the 9 others: 90 comparisons per metric; 4 records under time, 2 under speedup.
  CHECK(e.time.comparisons == 90);
  CHECK(e.time.injections == 90 * 4);
  CHECK(e.speedup.injections == 90 * 2);
  // Holm at alpha 5% over the rows: at most ~5% of no-change comparisons fail (here none or a few).
  CHECK(e.time.false_alarms <= 9);
  CHECK(e.speedup.false_alarms <= 9);
  // A 10% slowdown against a 1% run-to-run spread (1.4% for a ratio of two records): caught in at
  // least 95% of comparisons (missed only where the noise pulls the ratio under the 5% threshold).
  CHECK(e.time.caught >= 0.95 * e.time.injections);
  CHECK(e.speedup.caught >= 0.95 * e.speedup.injections);

  // With a 6% spread a 10% slowdown mostly hides in the noise: the evaluation says so.
  const std::vector<RunReport> noisy = no_change_runs(6, 0.06, 6);
  const auto n = graphbench::evaluate_gate(pointers(noisy), names_of(6), 0.05, CompareOptions{});
  CHECK(n.time.caught < n.time.injections / 2);
}

TEST_CASE("calibration file: written whole, read back, malformed files refused", "[calibration]") {
  const graphbench::testing::ScratchDir dir("graphbench-calibration");
  const std::vector<RunReport> runs = no_change_runs(4, 0.01, 7);
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    paths.push_back(dir.write("run" + std::to_string(i) + ".json", graphbench::to_json(runs[i]).dump()));
  }
  graphbench::CalibrateRequest request;
  request.runs = paths;
  request.output = (dir.path() / "gate-calibration.json").string();
  std::ostringstream out;
  CHECK(graphbench::run_calibrate(request, out) == 0);
  const std::string text = out.str();
  CHECK_THAT(text, Catch::Contains("Gate calibration of suite \"ci\" on cuda Test GPU from 4 no-change runs"));
  CHECK_THAT(text, Catch::Contains("| a | graph | speedup | 4 |"));
  CHECK_THAT(text, Catch::Contains("metric time: no-change comparisons failing the gate"));
  CHECK_THAT(text, Catch::Contains("median time: block bootstrap over rounds"));

  const GateCalibration back = graphbench::read_calibration_file(request.output);
  const GateCalibration direct = graphbench::calibrate_gate(pointers(runs), paths);
  REQUIRE(back.entries.size() == direct.entries.size());
  for (std::size_t i = 0; i < back.entries.size(); ++i) {
    CHECK(back.entries[i].values == direct.entries[i].values);
    CHECK(back.entries[i].log_sd == Approx(direct.entries[i].log_sd));
  }
  CHECK(back.suite == "ci");
  CHECK(back.alpha == 0.05);

  // compare --calibration prints where the noise came from.
  std::ostringstream compared;
  CHECK(graphbench::run_compare(paths[0], paths[1], CompareOptions{}, compared, "", request.output) == 0);
  CHECK_THAT(compared.str(), Catch::Contains("Calibration: " + request.output + " (6 records"));

  const std::string other = dir.write("other.json", R"({"kind": "results", "schema_version": 1, "records": []})");
  CHECK_THAT(input_error_of([&] { graphbench::read_calibration_file(other); }),
             Catch::Contains(other + ": /kind: expected \"graphbench gate calibration\""));
  const std::string short_values = dir.write(
      "short.json", R"({"kind": "graphbench gate calibration", "schema_version": 1, "records": [
        {"case": "a", "variant": "graph", "metric": "time", "values": [1.0, 2.0]}]})");
  CHECK_THAT(input_error_of([&] { graphbench::read_calibration_file(short_values); }),
             Catch::Contains(short_values + ": /records/0/values: expected an array of at least 3 positive numbers"));
  const std::string negative = dir.write(
      "negative.json", R"({"kind": "graphbench gate calibration", "schema_version": 1, "records": [
        {"case": "a", "variant": "graph", "metric": "time", "values": [1.0, 2.0, -3.0]}]})");
  CHECK_THAT(input_error_of([&] { graphbench::read_calibration_file(negative); }),
             Catch::Contains(negative + ": /records/0/values/2"));
  const std::string newer = dir.write("newer.json", R"({"kind": "graphbench gate calibration", "schema_version": 9, "records": []})");
  CHECK_THAT(input_error_of([&] { graphbench::read_calibration_file(newer); }), Catch::Contains("newer"));
}

TEST_CASE("interval overlap: counts pairs of runs and records, by each method", "[calibration]") {
  const std::vector<RunReport> runs = {run_with({1, 1, 1, 1}), run_with({1, 1, 1, 1}), run_with({1.5, 1, 1, 1})};
  const auto o = graphbench::interval_overlap(pointers(runs));
  CHECK(o.time_blocks.pairs == 3 * 4);
  CHECK(o.speedup_blocks.pairs == 3 * 2);
  CHECK(o.speedup_stored.pairs == 0);  // these runs store no speedup interval
  // Run 2's a/eager is 50% slower: its two pairs do not overlap; a/graph's speedup neither.
  CHECK(o.time_blocks.overlapping == 3 * 4 - 2);
  CHECK(o.time_independent.overlapping == 3 * 4 - 2);
  CHECK(o.speedup_blocks.overlapping == 3 * 2 - 2);
}

TEST_CASE("the smallest slowdown a calibrated row catches 95% of the time follows its run-to-run spread", "[calibration]") {
  graphbench::CalibrationEntry steady;
  steady.values = {100, 100, 100, 100, 100, 100, 100, 100};
  steady.log_sd = 0.0065;  // a graph step time on the H100: 0.65%
  graphbench::CalibrationEntry host_bound = steady;
  host_bound.log_sd = 0.148;  // a host-bound eager step: 14.8%
  // (t_{1 - 0.05/6, 7} + t_{0.95, 7}) * s * sqrt(2): t_{0.99167, 7} = 3.128, t_{0.95, 7} = 1.895.
  const double t = graphbench::stats::student_t_quantile(1.0 - 0.05 / 6, 7) + graphbench::stats::student_t_quantile(0.95, 7);
  CHECK(t == Approx(3.128 + 1.895).epsilon(0.01));
  CHECK(graphbench::detectable_slowdown(steady, 6, 0.05) == Approx(std::exp(t * 0.0065 * std::sqrt(2.0)) - 1.0));
  CHECK(graphbench::detectable_slowdown(steady, 6, 0.05) < 0.10);
  CHECK(graphbench::detectable_slowdown(host_bound, 6, 0.05) > 1.0);  // no 10% slowdown shows beside 14.8%
  // More rows: a stricter Holm level, a larger slowdown needed.
  CHECK(graphbench::detectable_slowdown(steady, 12, 0.05) > graphbench::detectable_slowdown(steady, 6, 0.05));
  graphbench::CalibrationEntry one_run = steady;
  one_run.values = {100};
  CHECK(std::isnan(graphbench::detectable_slowdown(one_run, 6, 0.05)));
}
