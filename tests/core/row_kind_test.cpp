// Tests of the gate's rule per row kind (core/compare/row_kind.h) and of its device-time and counts rows
// (core/compare/count_rows.cpp), on records built from figures like those of default ci runs on an H200.
#include "support/catch.h"
#include "support/compare_rows.h"
#include "support/records.h"
#include "support/scratch_dir.h"

#include "graphbench/core/compare/compare.h"
#include "graphbench/core/compare/row_kind.h"
#include "graphbench/core/report/json_io.h"

#include <sstream>
#include <string>
#include <vector>

using graphbench::CompareOptions;
using graphbench::CompareResult;
using graphbench::Comparison;
using graphbench::ResultRecord;
using graphbench::RunReport;
using graphbench::Verdict;
using graphbench::testing::ci_report;
using graphbench::testing::contains;
using graphbench::testing::merged_record;

namespace {

// A record of four processes whose kernel profile says how busy the device was.
ResultRecord profiled(const std::string& case_name, const std::string& variant, const std::vector<double>& medians,
                      double busy_share, double device_us, bool host_bound = false) {
  ResultRecord r = merged_record(case_name, variant, medians);
  graphbench::KernelProfile p;
  p.steps = 10;
  p.kernels_per_step = 5.0;
  p.copies_per_step = 1.0;
  p.busy_us_per_step = device_us;
  p.busy_share = busy_share;
  r.profile = p;
  r.host_bound = host_bound;
  r.issue_median_us = medians.front() * (host_bound ? 0.99 : 0.6);
  r.launches_per_step = 1.0;
  r.graphs_per_step = 1;
  graphbench::GraphFacts g;
  g.nodes = 5;
  g.kernel_nodes = 5;
  r.graphs.push_back(g);
  graphbench::MemoryUse m;
  m.graph_pool_bytes = 62914560;
  r.memory = m;
  return r;
}

std::vector<double> scaled(const std::vector<double>& values, double factor) {
  std::vector<double> out;
  for (double v : values) out.push_back(v * factor);
  return out;
}

// The row of `variant` for one measure (step time, device time, counts).
const Comparison& measure_row(const CompareResult& result, const std::string& variant, const std::string& measure) {
  for (const Comparison& row : result.rows) {
    if (row.variant == variant && row.measure == measure) return row;
  }
  FAIL("no " << measure << " row for " << variant);
  throw std::logic_error("unreachable");
}

// gelu-large/graph on an H200 (device busy 89% of the step, processes within 0.5%) and
// gelu-small/eager (busy 12%, host-bound, processes 32 to 53 us).
const std::vector<double> kDeviceBound{62.5, 62.4, 62.5, 62.1};
const std::vector<double> kHostBound{36.2, 47.7, 39.4, 49.8};

}  // namespace

TEST_CASE("row kinds: read from the busy share and the host-bound flag", "[compare][row-kind]") {
  using graphbench::compare_detail::judge_row_kind;
  using graphbench::compare_detail::RowKind;
  const ResultRecord device = profiled("gelu-large", "graph", kDeviceBound, 0.89, 55.9);
  const ResultRecord mixed = profiled("gelu-small", "graph", {10.9, 11.4, 11.0, 12.0}, 0.66, 7.8, true);
  const ResultRecord host = profiled("gelu-small", "eager", kHostBound, 0.12, 5.8, true);
  ResultRecord unprofiled = merged_record("gelu-small", "eager", kHostBound);
  CHECK(judge_row_kind({&device, &device}).kind == RowKind::kDeviceBound);
  CHECK(judge_row_kind({&device, &device}).floor == Approx(0.06));
  CHECK(judge_row_kind({&mixed}).kind == RowKind::kMixed);
  CHECK(judge_row_kind({&host}).kind == RowKind::kHostBound);
  CHECK(judge_row_kind({&unprofiled}).kind == RowKind::kUnknown);
  // The noisiest reading of a row's records judges it.
  CHECK(judge_row_kind({&device, &mixed}).kind == RowKind::kMixed);
  CHECK(judge_row_kind({&device, &unprofiled}).kind == RowKind::kUnknown);
  CHECK(judge_row_kind({&device, &unprofiled}).floor == Approx(0.75));
  // A busy device whose host is the bottleneck is not device-bound.
  ResultRecord busy_but_host_bound = device;
  busy_but_host_bound.host_bound = true;
  CHECK(judge_row_kind({&busy_but_host_bound}).kind == RowKind::kMixed);
  const std::string why = judge_row_kind({&device}).why;
  INFO(why);
  CHECK(contains(why, "device-bound (device busy 89% of the step"));
  CHECK(contains(why, "floor 6%"));
}

TEST_CASE("compare by default: a device-bound row 10% slower is SLOWER, the same move of a host-bound row is not",
          "[compare][row-kind]") {
  const RunReport base = ci_report({profiled("gelu-small", "eager", kHostBound, 0.12, 5.8, true),
                                    profiled("gelu-large", "graph", kDeviceBound, 0.89, 55.9)});
  // 10% more wall time in both rows; the device time is unchanged (a host-side slowdown).
  const RunReport slower = ci_report({profiled("gelu-small", "eager", scaled(kHostBound, 1.10), 0.11, 5.8, true),
                                      profiled("gelu-large", "graph", scaled(kDeviceBound, 1.10), 0.81, 55.9)});
  const CompareResult result = graphbench::compare_reports(base, slower, {});
  const Comparison& device = measure_row(result, "graph", graphbench::kMeasureStepTime);
  INFO(device.note);
  CHECK(device.verdict == Verdict::kSlower);
  CHECK(device.row_kind == "device-bound");
  CHECK(device.rule == "device-bound floor 6%");
  CHECK(contains(device.note, "device-bound (device busy 89% of the step"));
  const Comparison& host = measure_row(result, "eager", graphbench::kMeasureStepTime);
  INFO(host.note);
  CHECK(host.verdict != Verdict::kSlower);
  CHECK(host.row_kind == "host-bound");
  CHECK(host.rule == "host-bound floor 75%");
  CHECK(measure_row(result, "graph", graphbench::kMeasureDeviceTime).verdict == Verdict::kSame);
  CHECK(result.exit_code() == 1);
  std::ostringstream text;
  text << graphbench::render_comparison(result, {});
  INFO(text.str());
  CHECK(contains(text.str(), "REGRESSION: gelu-large/graph is 1.10x slower"));
  CHECK(!contains(text.str(), "REGRESSION: gelu-small/eager"));
}

TEST_CASE("compare by default: a device-bound row within its floor is not SLOWER", "[compare][row-kind]") {
  // Two runs of unchanged code: gelu-large/eager moved 3.5% (the most seen between default runs).
  const RunReport a = ci_report({profiled("gelu-large", "eager", {57.2, 57.0, 57.3, 57.1}, 0.85, 48.5)});
  const RunReport b = ci_report({profiled("gelu-large", "eager", {59.2, 59.0, 59.3, 59.1}, 0.86, 48.9)});
  for (const auto& [x, y] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    const CompareResult result = graphbench::compare_reports(*x, *y, {});
    const Comparison& row = measure_row(result, "eager", graphbench::kMeasureStepTime);
    INFO(row.note);
    CHECK(row.verdict != Verdict::kSlower);
    CHECK(result.exit_code() == 0);
  }
}

TEST_CASE("compare: more device work is SLOWER in device time even where the wall time hides it",
          "[compare][row-kind]") {
  const RunReport base = ci_report({profiled("gelu-small", "eager", kHostBound, 0.12, 5.8, true)});
  const RunReport more = ci_report({profiled("gelu-small", "eager", {37.0, 48.0, 39.0, 50.1}, 0.13, 6.4, true)});
  const CompareResult result = graphbench::compare_reports(base, more, {});
  CHECK(measure_row(result, "eager", graphbench::kMeasureStepTime).verdict != Verdict::kSlower);
  const Comparison& device = measure_row(result, "eager", graphbench::kMeasureDeviceTime);
  INFO(device.note);
  CHECK(device.verdict == Verdict::kSlower);
  CHECK(device.ratio == Approx(6.4 / 5.8));
  CHECK(device.rule == "device time, floor 6%");
  CHECK(result.exit_code() == 1);
  // 3% more device time is within its floor.
  const RunReport little = ci_report({profiled("gelu-small", "eager", kHostBound, 0.12, 5.8 * 1.03, true)});
  CHECK(measure_row(graphbench::compare_reports(base, little, {}), "eager", graphbench::kMeasureDeviceTime).verdict ==
        Verdict::kSame);
}

TEST_CASE("compare: a changed count is named, and fails the gate under --fail-on-counts", "[compare][row-kind]") {
  const RunReport base = ci_report({profiled("gelu-large", "graph", kDeviceBound, 0.89, 55.9)});
  ResultRecord extra = profiled("gelu-large", "graph", kDeviceBound, 0.89, 55.9);
  extra.profile->kernels_per_step = 6.0;
  extra.graphs[0].nodes = 6;
  extra.graphs[0].kernel_nodes = 6;
  const RunReport changed = ci_report({extra});
  const CompareResult result = graphbench::compare_reports(base, changed, {});
  const Comparison& counts = measure_row(result, "graph", graphbench::kMeasureCounts);
  INFO(counts.note);
  CHECK(counts.verdict == Verdict::kChanged);
  CHECK(contains(counts.note, "kernels per step 5 -> 6"));
  CHECK(contains(counts.note, "graph nodes 5 -> 6"));
  CHECK(!contains(counts.note, "graph pool"));
  CHECK(counts.rule == "counts, exact");
  CHECK(result.exit_code() == 0);  // a verdict of its own, not a failure by default
  CompareOptions strict;
  strict.fail_on_counts = true;
  const CompareResult gated = graphbench::compare_reports(base, changed, strict);
  CHECK(gated.exit_code() == 1);
  std::ostringstream text;
  text << graphbench::render_comparison(gated, strict);
  CHECK(contains(text.str(), "REGRESSION: gelu-large/graph counts changed: kernels per step 5 -> 6"));
  // Unchanged counts are SAME and say what they are.
  const Comparison& same = measure_row(graphbench::compare_reports(base, base, strict), "graph", graphbench::kMeasureCounts);
  CHECK(same.verdict == Verdict::kSame);
  CHECK(contains(same.note, "graph pool 60.0 MiB"));
}

TEST_CASE("compare: a calibration beside the baseline is found without --calibration", "[compare][row-kind]") {
  graphbench::testing::ScratchDir dir("graphbench-calibration-beside");
  const std::string baseline = (dir.path() / "results.json").string();
  CHECK(graphbench::calibration_beside(baseline).empty());
  dir.write(graphbench::kCalibrationFileName, "{}");
  CHECK(graphbench::calibration_beside(baseline) == (dir.path() / "gate-calibration.json").string());
  CHECK(graphbench::calibration_output_of(dir.path().string()) == (dir.path() / "gate-calibration.json").string());
  CHECK(graphbench::calibration_output_of("x/cal.json") == "x/cal.json");
}
