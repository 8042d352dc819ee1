// Tests of the host's pace in the gate (compare/paced_median.h): the paced median, which records
// a calibration paces, the calibrated verdicts at the same host pace, the leave-one-out rates, the
// calibration file, and the paces in results.json and in merged repetitions. On synthetic runs
// whose host pace moves from run to run while the step's work does not.
#include "support/catch.h"
#include "support/error_of.h"
#include "support/records.h"
#include "support/scratch_dir.h"

#include "graphbench/compare/calibration.h"
#include "graphbench/compare/compare.h"
#include "graphbench/compare/gate_evaluation.h"
#include "graphbench/compare/paced_median.h"
#include "graphbench/record/merge_repetitions.h"
#include "graphbench/report/json_io.h"
#include "graphbench/stats/statistics.h"

#include <cmath>
#include <string>
#include <vector>

using graphbench::CompareOptions;
using graphbench::GateCalibration;
using graphbench::RunReport;
using graphbench::Verdict;
using graphbench::testing::input_error_of;

namespace {

using Metric = CompareOptions::Metric;

// A run of suite "ci", one case "s" with a host-bound eager step (100 us at host pace 50 us) and a
// graph step (30 us, not host-bound). `host` scales the host's pace: the eager samples and the
// paces move with it, the graph's do not. `eager_work` and `graph_work` scale the steps' own work
// (a slowdown of the code).
RunReport run_at(double host, double eager_work = 1.0, double graph_work = 1.0) {
  RunReport report;
  report.environment.suite = "ci";
  report.environment.device = "cuda";
  report.environment.gpu_name = "Test GPU";
  for (const char* variant : {"eager", "graph"}) {
    auto r = graphbench::testing::benchmark_record("s", variant, "cuda");
    const bool eager = std::string(variant) == "eager";
    for (int i = 0; i < 31; ++i) {
      const double wobble = 1.0 + 0.01 * ((i % 3) - 1);
      r.samples_us.push_back(eager ? 100.0 * host * eager_work * wobble : 30.0 * graph_work * wobble);
      r.host_pace_us.push_back(50.0 * host * (1.0 + 0.002 * ((i % 5) - 2)));
    }
    r.stats = graphbench::stats::summarize(r.samples_us);
    r.host_bound = eager;
    report.records.push_back(r);
  }
  return report;
}

// Host paces of eight no-change runs: two modes 40% apart, as a KVM guest showed (docs/measuring.md).
const std::vector<double> kHosts = {1.00, 1.41, 1.03, 1.38, 0.98, 1.43, 1.01, 1.40};

std::vector<RunReport> runs_at(const std::vector<double>& hosts) {
  std::vector<RunReport> runs;
  for (double h : hosts) runs.push_back(run_at(h));
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

const graphbench::Comparison& row_of(const graphbench::CompareResult& result, const std::string& variant) {
  for (const auto& row : result.rows) {
    if (row.variant == variant) return row;
  }
  throw std::logic_error("no row " + variant);
}

}  // namespace

TEST_CASE("paced median: the median of each sample over its own pace", "[calibration][host-pace]") {
  using graphbench::paced_median;
  CHECK(paced_median({10.0, 40.0, 9.0}, {5.0, 10.0, 3.0}) == Approx(3.0));  // ratios 2, 4, 3
  CHECK(std::isnan(paced_median({10.0, 20.0}, {5.0})));
  CHECK(std::isnan(paced_median({}, {})));
  CHECK(std::isnan(paced_median({10.0}, {0.0})));
  auto r = graphbench::testing::benchmark_record("s", "eager", "cuda");
  r.samples_us = {1.0, 2.0};
  CHECK_FALSE(graphbench::has_host_pace(r));
  r.host_pace_us = {3.0, 4.0};
  CHECK(graphbench::has_host_pace(r));
  r.host_pace_us = {3.0, -1.0};
  CHECK_FALSE(graphbench::has_host_pace(r));
}

TEST_CASE("calibrate: a record host-bound in most runs is calibrated at the same host pace", "[calibration][host-pace]") {
  const std::vector<RunReport> runs = runs_at(kHosts);
  const GateCalibration paced = graphbench::calibrate_gate(pointers(runs), names_of(runs.size()));
  REQUIRE(paced.paced.size() == 1);
  CHECK(paced.paced[0] == std::pair<std::string, std::string>{"s", "eager"});
  CHECK(paced.is_paced("s", "eager"));
  CHECK_FALSE(paced.is_paced("s", "graph"));
  // Eager's time moves 40% with the host; per host pace it holds (the probe's own wobble only).
  CHECK(paced.find("s", "eager", Metric::kTime)->log_sd < 0.002);
  CHECK(paced.find("s", "graph", Metric::kSpeedup)->log_sd < 0.002);
  CHECK(paced.find("s", "eager", Metric::kTime)->values[0] == Approx(2.0).epsilon(0.01));  // 100 us / 50 us

  const GateCalibration unpaced = graphbench::calibrate_gate(pointers(runs), names_of(runs.size()), 0.05, false);
  CHECK(unpaced.paced.empty());
  CHECK(unpaced.find("s", "eager", Metric::kTime)->log_sd > 0.15);
  CHECK(unpaced.find("s", "graph", Metric::kSpeedup)->log_sd > 0.15);
  // The graph step is not host-bound: its time row is its median either way.
  CHECK(paced.find("s", "graph", Metric::kTime)->values == unpaced.find("s", "graph", Metric::kTime)->values);

  // Host-bound in only 3 of 8 runs, or one run without paces: not paced.
  std::vector<RunReport> mixed = runs_at(kHosts);
  for (std::size_t i = 3; i < mixed.size(); ++i) mixed[i].records[0].host_bound = false;
  CHECK(graphbench::calibrate_gate(pointers(mixed), names_of(mixed.size())).paced.empty());
  std::vector<RunReport> without = runs_at(kHosts);
  without[5].records[0].host_pace_us.clear();
  CHECK(graphbench::calibrate_gate(pointers(without), names_of(without.size())).paced.empty());
}

TEST_CASE("compare --calibration: a host that slowed is not a regression, a step that slowed is",
          "[calibration][host-pace]") {
  const std::vector<RunReport> runs = runs_at(kHosts);
  const GateCalibration calibration = graphbench::calibrate_gate(pointers(runs), names_of(runs.size()));
  for (const Metric metric : {Metric::kTime, Metric::kSpeedup}) {
    CompareOptions options;
    options.metric = metric;
    options.calibration = &calibration;
    const std::string row = metric == Metric::kTime ? "eager" : "graph";
    // The host 40% slower, the code unchanged.
    const auto host_slower = graphbench::compare_reports(runs[0], run_at(1.40), options);
    CHECK(row_of(host_slower, row).verdict == Verdict::kSame);
    CHECK(row_of(host_slower, row).host_paced);
    CHECK(host_slower.exit_code() == graphbench::kExitOk);
    // The host as fast as the baseline's, eager's own work 10% slower (the speedup row: graph / eager
    // grows less, so the graph is slowed there).
    const RunReport slowed = metric == Metric::kTime ? run_at(1.0, 1.10) : run_at(1.0, 1.0, 1.10);
    const auto code_slower = graphbench::compare_reports(runs[0], slowed, options);
    CHECK(row_of(code_slower, row).verdict == Verdict::kSlower);
    CHECK(row_of(code_slower, row).ratio == Approx(1.10).epsilon(0.01));
    CHECK(row_of(code_slower, row).note.find("at the same host pace") != std::string::npos);
    // And both at once: the slowdown is still seen through a slower host.
    const RunReport both = metric == Metric::kTime ? run_at(1.40, 1.10) : run_at(1.40, 1.0, 1.10);
    CHECK(row_of(graphbench::compare_reports(runs[0], both, options), row).verdict == Verdict::kSlower);
  }
}

TEST_CASE("compare --calibration: a paced record without paces is judged by the uncalibrated rule",
          "[calibration][host-pace]") {
  const std::vector<RunReport> runs = runs_at(kHosts);
  const GateCalibration calibration = graphbench::calibrate_gate(pointers(runs), names_of(runs.size()));
  CompareOptions options;
  options.calibration = &calibration;
  RunReport current = run_at(1.0);
  current.records[0].host_pace_us.clear();
  const auto result = graphbench::compare_reports(runs[0], current, options);
  const auto& eager = row_of(result, "eager");
  CHECK(eager.calibration_runs == 0);
  CHECK_FALSE(eager.host_paced);
  CHECK(eager.note.find("current has no host pace per sample") != std::string::npos);
  CHECK(row_of(result, "graph").calibration_runs == 8);  // the graph's time row needs no pace
}

TEST_CASE("calibrate: leave-one-out, pacing the host-bound record lets a 10% slowdown show", "[calibration][host-pace]") {
  const std::vector<RunReport> runs = runs_at(kHosts);
  CompareOptions options;
  const auto paced = graphbench::evaluate_gate(pointers(runs), names_of(runs.size()), 0.05, options, 0.10, true);
  const auto unpaced = graphbench::evaluate_gate(pointers(runs), names_of(runs.size()), 0.05, options, 0.10, false);
  CHECK(paced.time.false_alarms == 0);
  CHECK(paced.speedup.false_alarms == 0);
  CHECK(paced.time.caught == paced.time.injections);  // both records, every held-out pair
  CHECK(paced.speedup.caught == paced.speedup.injections);
  // Unpaced, eager's 10% is lost in the host's 40%: at most the graph's time rows are caught.
  CHECK(unpaced.time.caught <= unpaced.time.injections / 2);
  CHECK(unpaced.speedup.caught < unpaced.speedup.injections / 2);
}

TEST_CASE("calibration file: the paced records are written and read back", "[calibration][host-pace]") {
  const std::vector<RunReport> runs = runs_at({1.0, 1.4, 1.0, 1.4});
  const GateCalibration calibration = graphbench::calibrate_gate(pointers(runs), names_of(runs.size()));
  graphbench::testing::ScratchDir dir("host-pace-calibration");
  const std::string path = dir.write("calibration.json", graphbench::calibration_to_json_text(calibration));
  const GateCalibration back = graphbench::read_calibration_file(path);
  CHECK(back.paced == calibration.paced);
  CHECK(back.is_paced("s", "eager"));

  std::string text = graphbench::calibration_to_json_text(calibration);
  const auto at = text.find("\"paced\": [");
  REQUIRE(at != std::string::npos);
  dir.write("calibration.json", text.substr(0, at) + "\"paced\": 3, \"paced_was\": [" + text.substr(at + 10));
  const std::string error = input_error_of([&] { graphbench::read_calibration_file(path); });
  CHECK(error.find(path) != std::string::npos);
  CHECK(error.find("/paced") != std::string::npos);
}

TEST_CASE("results.json keeps the host pace of each sample, and repetitions merge them", "[host-pace][repetitions]") {
  RunReport report = run_at(1.2);
  const RunReport back = graphbench::report_from_json(graphbench::to_json(report), "results.json");
  CHECK(back.records[0].host_pace_us == report.records[0].host_pace_us);

  std::vector<graphbench::RepetitionResult> reps(2);
  reps[0].index = 1;
  reps[0].report = run_at(1.0);
  reps[1].index = 2;
  reps[1].report = run_at(1.4);
  const RunReport merged = graphbench::merge_repetitions(reps, 2);
  CHECK(merged.records[0].host_pace_us.size() == 62);
  CHECK(merged.records[0].host_pace_us.size() == merged.records[0].samples_us.size());
  reps[1].report->records[0].host_pace_us.clear();  // one repetition without paces: none merged
  CHECK(graphbench::merge_repetitions(reps, 2).records[0].host_pace_us.empty());
}
