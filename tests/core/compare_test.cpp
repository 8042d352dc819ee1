// Tests of the regression gate: verdicts and exit codes on the golden result files under
// tests/golden/compare/ (20 samples per record, generated once from fixed seeds), plus the edge
// cases built in code.
#include "support/catch.h"
#include "support/compare_rows.h"
#include "support/error_of.h"
#include "support/records.h"

#include "graphbench/core/stats/bootstrap.h"
#include "graphbench/core/compare/calibration.h"
#include "graphbench/core/compare/compare.h"
#include "graphbench/core/stats/statistics.h"
#include "graphbench/core/base/errors.h"
#include "graphbench/core/report/json_io.h"

#include <fmt/format.h>

#include <cmath>
#include <sstream>
#include <string>

using graphbench::CompareOptions;
using graphbench::CompareResult;
using graphbench::Comparison;
using graphbench::InputError;
using graphbench::RecordStatus;
using graphbench::ResultRecord;
using graphbench::RunReport;
using graphbench::Verdict;
using graphbench::testing::row_of;
using graphbench::testing::contains;

namespace {

using graphbench::testing::input_error_of;

std::string compare_file(const std::string& name) {
  return graphbench::testing::golden_path("compare/" + name);
}

RunReport load(const std::string& name) {
  return graphbench::read_results_file(compare_file(name));
}

// The golden files are runs of one process each. Without a calibration or an A/A pair the gate
// would judge them by the one-process rule (core/compare/process_rule.cpp); these tests are of the
// within-run interval and its threshold, so they give the baseline as its own A/A pair (a
// run-to-run noise of 0, the plain threshold). The default is tested below ("by default").
CompareResult compare_with_baseline(const std::string& current,
                                    const CompareOptions& options = {}) {
  const RunReport baseline = load("baseline.json");
  return graphbench::compare_reports(baseline, load(current), options, &baseline);
}

// Two reports compared with the baseline as its own A/A pair: the within-run rule at the plain
// threshold (see compare_with_baseline).
CompareResult within_run(const RunReport& baseline, const RunReport& current, const CompareOptions& options = {}) {
  return graphbench::compare_reports(baseline, current, options, &baseline);
}

int run(const std::string& current, std::string& text, const CompareOptions& options = {}) {
  std::ostringstream out;
  const int code = graphbench::run_compare(compare_file("baseline.json"), compare_file(current), options, out,
                                           compare_file("baseline.json"));
  text = out.str();
  return code;
}

ResultRecord timed(const std::string& case_name, const std::string& variant,
                   std::vector<double> samples) {
  ResultRecord r;
  r.case_name = case_name;
  r.workload = "gelu";
  r.variant = variant;
  r.kind = graphbench::RecordKind::kBenchmark;
  r.samples_us = std::move(samples);
  return r;
}

bool same_or_unsure(const Comparison& row) {
  return row.verdict == Verdict::kSame || row.verdict == Verdict::kUnsure;
}

std::vector<double> around(double median, int count, double spread = 0.01) {
  return graphbench::testing::samples_around(median, count, spread);
}

}  // namespace

TEST_CASE("compare: unchanged distributions are SAME", "[compare]") {
  const CompareResult result = compare_with_baseline("current_unchanged.json");
  REQUIRE(result.rows.size() == 7);
  for (const Comparison& row : result.rows) {
    INFO(row.case_name << "/" << row.variant << ": " << row.note);
    if (row.variant == "jit+graph") {
      CHECK(row.verdict == Verdict::kNotCompared);
      CHECK(row.note ==
            "baseline skipped: TorchScript is not available in this LibTorch build, current "
            "skipped: TorchScript is not available in this LibTorch build");
      continue;
    }
    CHECK(row.verdict == Verdict::kSame);
    CHECK(row.ci95.low <= row.ratio);
    CHECK(row.ci95.high >= row.ratio);
    CHECK(row.threshold_used == 0.05);  // the quiet samples' noise is below the option
    CHECK(row.noise < 0.05);
  }
  CHECK(result.regressions().empty());
  CHECK(result.exit_code() == 0);
  std::string text;
  CHECK(run("current_unchanged.json", text) == 0);
  CHECK_FALSE(contains(text, "REGRESSION"));
  CHECK(contains(text, "No regression (exit 0)."));
}

TEST_CASE("compare: a 1.5x slow-down is SLOWER and named", "[compare]") {
  const CompareResult result = compare_with_baseline("current_slower.json");
  const Comparison& slow = row_of(result, "gelu-small", "graph");
  CHECK(slow.verdict == Verdict::kSlower);
  CHECK(slow.ratio == Approx(1.5).epsilon(0.03));
  CHECK(slow.ci95.low > 1.05);
  CHECK(slow.baseline_median_us == Approx(7.85).epsilon(0.02));
  CHECK(slow.current_median_us == Approx(1.5 * 7.85).epsilon(0.02));
  CHECK(row_of(result, "gelu-small", "eager").verdict == Verdict::kSame);
  CHECK(row_of(result, "gelu-large", "graph").verdict == Verdict::kSame);
  REQUIRE(result.regressions().size() == 1);
  CHECK(result.regressions()[0] == &slow);
  CHECK(result.exit_code() == 1);

  std::string text;
  CHECK(run("current_slower.json", text) == 1);
  const std::string line = fmt::format(
      "REGRESSION: gelu-small/graph is {:.2f}x slower (95% CI {:.2f}-{:.2f}, threshold 5.0%)",
      slow.ratio, slow.ci95.low, slow.ci95.high);
  CHECK(contains(text, line + "\n"));
  CHECK(contains(text, "| gelu-small | graph | "));
  CHECK(contains(text, "1 regression (exit 1)."));
}

TEST_CASE("compare: a speed-up is FASTER and never fails", "[compare]") {
  const CompareResult result = compare_with_baseline("current_faster.json");
  const Comparison& fast = row_of(result, "gelu-large", "graph");
  CHECK(fast.verdict == Verdict::kFaster);
  CHECK(fast.ratio == Approx(0.6).epsilon(0.03));
  CHECK(fast.ci95.high < 1.0 / 1.05);
  CHECK(fast.note == fmt::format("{:.2f}x faster", 1.0 / fast.ratio));
  CHECK(result.exit_code() == 0);
  std::string text;
  CHECK(run("current_faster.json", text) == 0);
  CHECK_FALSE(contains(text, "REGRESSION"));
}

TEST_CASE("compare: a 7% shift inside 30% noise is never SLOWER", "[compare]") {
  const CompareResult result = compare_with_baseline("current_noisy.json");
  int compared = 0;
  for (const Comparison& row : result.rows) {
    INFO(row.case_name << "/" << row.variant << ": " << row.note);
    if (row.variant == "jit+graph") continue;
    ++compared;
    CHECK((row.verdict == Verdict::kUnsure || row.verdict == Verdict::kSame));
    CHECK(row.noise > 0.10);  // half of an IQR/median of about 30%
    CHECK(row.threshold_used == row.noise);
    CHECK(contains(row.note,
                   fmt::format("threshold raised to the noise {:.1f}%", row.noise * 100.0)));
  }
  CHECK(compared == 6);
  CHECK(result.exit_code() == 0);
}

TEST_CASE("compare: a record ok in the baseline and missing now is a regression, unless allowed", "[compare]") {
  const CompareResult result = compare_with_baseline("current_missing.json");
  const Comparison& missing = row_of(result, "linear-dropout", "graph");
  CHECK(missing.verdict == Verdict::kMissing);
  CHECK(missing.lost);
  CHECK(missing.note == "ok in baseline, absent from current");
  CHECK(std::isnan(missing.ratio));
  CHECK(missing.baseline_median_us == Approx(67.7).epsilon(0.02));
  CHECK(row_of(result, "mnist-step", "eager").verdict == Verdict::kNew);
  CHECK(row_of(result, "mnist-step", "graph").verdict == Verdict::kNew);
  CHECK(result.rows.back().case_name == "mnist-step");  // new rows come last
  CHECK(result.exit_code() == 1);
  REQUIRE(result.regressions().size() == 1);
  CHECK(result.regressions()[0]->variant == "graph");
  std::string text;
  CHECK(run("current_missing.json", text) == 1);
  CHECK(contains(text, "REGRESSION: linear-dropout/graph is missing from current (ok in the baseline; "
                       "--allow-missing lets it pass)\n"));
  CHECK(contains(text, "| MISSING |"));
  CHECK(contains(text, "| NEW |"));

  CompareOptions relaxed;
  relaxed.allow_missing = true;
  const CompareResult allowed = compare_with_baseline("current_missing.json", relaxed);
  CHECK(allowed.exit_code() == 0);
  CHECK(row_of(allowed, "linear-dropout", "graph").verdict == Verdict::kMissing);
  CHECK(run("current_missing.json", text, relaxed) == 0);
  CHECK(contains(text, ". 1 record ok in the baseline lost by current, let pass by --allow-missing. No regression "
                       "(exit 0).\n"));
}

TEST_CASE("compare: a record skipped or failed in the baseline and missing now is no regression", "[compare]") {
  RunReport baseline, current;
  baseline.records = {timed("a", "graph", around(10.0, 20)), timed("b", "graph", around(10.0, 20))};
  baseline.records[1].status = RecordStatus::kSkipped;
  baseline.records[1].samples_us.clear();
  current.records = {baseline.records[0]};
  const CompareResult result = graphbench::compare_reports(baseline, current, {});
  const Comparison& gone = row_of(result, "b", "graph");
  CHECK(gone.verdict == Verdict::kMissing);
  CHECK_FALSE(gone.lost);
  CHECK(gone.note == "in baseline only");
  CHECK(result.exit_code() == 0);
}

TEST_CASE("compare: a runner that lost its GPU (every graph variant skipped) fails the gate", "[compare]") {
  RunReport baseline, current;
  for (const char* name : {"a", "b"}) {
    baseline.records.push_back(timed(name, "eager", around(30.0, 20)));
    baseline.records.push_back(timed(name, "graph", around(10.0, 20)));
  }
  current = baseline;
  for (ResultRecord& r : current.records) {
    if (r.variant != "graph") continue;
    r.status = RecordStatus::kSkipped;
    r.reason = "CUDA graphs need a CUDA device";
    r.samples_us.clear();
  }
  for (const auto metric : {CompareOptions::Metric::kTime, CompareOptions::Metric::kSpeedup}) {
    CompareOptions options;
    options.metric = metric;
    const CompareResult result = graphbench::compare_reports(baseline, current, options);
    const Comparison& skipped = row_of(result, "a", "graph");
    CHECK(skipped.verdict == Verdict::kSkipped);
    CHECK(skipped.lost);
    CHECK(skipped.note == "ok in baseline, skipped in current: CUDA graphs need a CUDA device");
    CHECK(result.regressions().size() == 2);
    CHECK(result.exit_code() == 1);
    const std::string text = graphbench::render_comparison(result, options);
    CHECK(contains(text, "REGRESSION: a/graph was ok in baseline, skipped in current: CUDA graphs need a CUDA device "
                         "(--allow-missing lets it pass)\n"));
    CHECK(contains(text, "2 SKIPPED"));
    CHECK(contains(text, "2 regressions (exit 1)."));

    options.allow_missing = true;
    if (metric == CompareOptions::Metric::kTime) {
      CHECK(graphbench::compare_reports(baseline, current, options).exit_code() == 0);  // eager still compared
    } else {
      // Under speedup eager is the reference: with the graphs let pass, nothing was compared.
      CHECK(input_error_of([&] { graphbench::compare_reports(baseline, current, options); })
                .find("no record could be compared") != std::string::npos);
    }
  }
  // Every record lost and let pass: nothing was compared, which is bad input, never a pass.
  for (ResultRecord& r : current.records) {
    r.status = RecordStatus::kSkipped;
    r.samples_us.clear();
  }
  CompareOptions relaxed;
  relaxed.allow_missing = true;
  CHECK(graphbench::compare_reports(baseline, current, {}).exit_code() == 1);
  CHECK(input_error_of([&] { graphbench::compare_reports(baseline, current, relaxed); })
            .find("no record could be compared") != std::string::npos);
}

TEST_CASE("compare: a case that failed is FAILED", "[compare]") {
  const CompareResult result = compare_with_baseline("current_failed.json");
  const Comparison& failed = row_of(result, "gelu-small", "graph");
  CHECK(failed.verdict == Verdict::kFailed);
  CHECK(failed.note ==
        "failed in current: CUDA graph capture failed: operation not permitted when stream is "
        "capturing");
  CHECK(result.exit_code() == 1);
  std::string text;
  CHECK(run("current_failed.json", text) == 1);
  CHECK(contains(text, "REGRESSION: gelu-small/graph failed in current: CUDA graph capture"));
}

TEST_CASE("compare: metric speedup cancels drift between runs", "[compare]") {
  CompareOptions speedup;
  speedup.metric = CompareOptions::Metric::kSpeedup;
  const CompareResult result = compare_with_baseline("current_speedup.json", speedup);
  for (const Comparison& row : result.rows) {
    INFO(row.case_name << "/" << row.variant << ": " << row.note);
    if (row.variant == "graph") {
      CHECK(row.verdict == Verdict::kSame);
      CHECK(row.ratio == Approx(1.0).epsilon(0.03));
      CHECK(row.current_median_us == Approx(2.0 * row.baseline_median_us).epsilon(0.03));
    } else if (row.variant == "eager") {
      CHECK(row.verdict == Verdict::kNotCompared);
      CHECK(row.note == "eager is the reference of metric speedup");
    }
  }
  CHECK(result.exit_code() == 0);

  // The same files by absolute time: everything is twice as slow.
  const CompareResult by_time = compare_with_baseline("current_speedup.json");
  CHECK(row_of(by_time, "gelu-small", "eager").verdict == Verdict::kSlower);
  CHECK(row_of(by_time, "linear-dropout", "graph").verdict == Verdict::kSlower);
  CHECK(by_time.exit_code() == 1);
}

TEST_CASE("compare: a graph that got slower relative to eager is SLOWER under speedup",
          "[compare]") {
  RunReport baseline, current;
  baseline.records = {timed("c", "eager", around(100.0, 20)),
                      timed("c", "graph", around(20.0, 20))};
  // Eager drifted 2x slower, graph 3x: graph/eager rose by 1.5x.
  current.records = {timed("c", "eager", around(200.0, 20)), timed("c", "graph", around(60.0, 20))};
  CompareOptions speedup;
  speedup.metric = CompareOptions::Metric::kSpeedup;
  const CompareResult result = within_run(baseline, current, speedup);
  const Comparison& graph = row_of(result, "c", "graph");
  CHECK(graph.verdict == Verdict::kSlower);
  CHECK(graph.ratio == Approx(1.5).epsilon(0.01));
  CHECK(result.exit_code() == 1);
  CHECK(contains(graphbench::render_comparison(result, speedup),
                 "REGRESSION: c/graph is 1.50x slower relative to eager (95% CI"));

  current.records[0].status = RecordStatus::kSkipped;
  current.records[0].samples_us.clear();
  // Eager ok in the baseline and skipped now is a lost record: a regression.
  CHECK(graphbench::compare_reports(baseline, current, speedup).exit_code() == 1);
  // Let pass, nothing else is left to compare: a gate that compared nothing is bad input, not a pass.
  speedup.allow_missing = true;
  CHECK_THAT(input_error_of([&] { graphbench::compare_reports(baseline, current, speedup); }),
             Catch::Contains("baseline and current: no record could be compared"));
  baseline.records.push_back(timed("d", "eager", around(100.0, 20)));
  baseline.records.push_back(timed("d", "graph", around(20.0, 20)));
  current.records.push_back(timed("d", "eager", around(100.0, 20)));
  current.records.push_back(timed("d", "graph", around(20.0, 20)));
  const CompareResult no_eager = graphbench::compare_reports(baseline, current, speedup);
  CHECK(row_of(no_eager, "c", "graph").verdict == Verdict::kNotCompared);
  CHECK(row_of(no_eager, "c", "graph").note == "no ok eager record of this case in current");
  CHECK(row_of(no_eager, "d", "graph").verdict == Verdict::kSame);
}

TEST_CASE("compare: an ok record without samples, or with a median they do not give, is a corrupt file", "[compare]") {
  RunReport baseline, current;
  baseline.records = {timed("a", "eager", around(100.0, 20)), timed("a", "graph", around(10.0, 20))};
  current.records = baseline.records;
  current.records[1].samples_us.clear();
  CHECK(input_error_of([&] { graphbench::compare_reports(baseline, current, {}); }) ==
        "current: /records/1/samples_us: an ok record (case \"a\", variant \"graph\") without samples: a corrupt or "
        "truncated file");
  current.records = baseline.records;
  baseline.records[0].stats = graphbench::stats::summarize(baseline.records[0].samples_us);
  baseline.records[0].stats->median *= 0.5;
  CHECK_THAT(input_error_of([&] { graphbench::compare_reports(baseline, current, {}); }),
             Catch::StartsWith("baseline: /records/0/median_us: ") &&
                 Catch::Contains("is not the median of the record's 20 samples") &&
                 Catch::Contains("(case \"a\", variant \"eager\"): a corrupt or hand-edited file"));
}

TEST_CASE("compare: too few samples, statuses and a straddling interval", "[compare]") {
  RunReport baseline, current;
  baseline.records = {timed("a", "graph", around(10.0, 20)), timed("b", "graph", around(10.0, 20)),
                      timed("c", "graph", around(10.0, 20)), timed("d", "graph", around(10.0, 20)),
                      timed("e", "graph", around(10.0, 20))};
  current.records = baseline.records;
  current.records[0].samples_us = {15.0, 15.1, 15.2};  // slower, but only 3 samples
  baseline.records[1].status = RecordStatus::kFailed;
  baseline.records[1].reason = "boom";
  current.records[2].status = RecordStatus::kSkipped;
  current.records[2].reason = "no GPU";
  current.records[3].samples_us = around(10.5, 20, 0.08);  // +5% with noise 4%: straddles 1.05

  const CompareResult result = within_run(baseline, current);
  const Comparison& few = row_of(result, "a", "graph");
  CHECK(few.verdict == Verdict::kFewSamples);
  CHECK(few.note == "current has 3 samples, fewer than --min-samples 5: no interval");
  CHECK(few.ratio == Approx(1.51).epsilon(0.01));  // the figure is shown, without an interval
  CHECK(std::isnan(few.ci95.low));
  CHECK(std::isnan(few.ci95.high));
  CHECK(few.lost);  // ok in the baseline, too few samples now: a regression by default
  CHECK(row_of(result, "b", "graph").verdict == Verdict::kNotCompared);
  CHECK(row_of(result, "b", "graph").note == "baseline FAILED: boom, current ok");
  CHECK(row_of(result, "c", "graph").verdict == Verdict::kSkipped);
  CHECK(row_of(result, "c", "graph").note == "ok in baseline, skipped in current: no GPU");
  const Comparison& straddle = row_of(result, "d", "graph");
  CHECK(straddle.verdict == Verdict::kUnsure);
  CHECK(straddle.ci95.low < 1.0 + straddle.threshold_used);
  CHECK(straddle.ci95.high > 1.0 + straddle.threshold_used);
  CHECK(straddle.note ==
        fmt::format("95% CI {:.3f}-{:.3f} crosses 1.050", straddle.ci95.low, straddle.ci95.high));
  CHECK(row_of(result, "e", "graph").verdict == Verdict::kSame);
  CHECK(result.exit_code() == 1);
  REQUIRE(result.regressions().size() == 2);  // a (too few samples now) and c (skipped now)
  const std::string text = graphbench::render_comparison(result, {});
  CHECK(contains(text, "| a | graph | step time | 10.00 | 15.10 | 1.510 | - | - | FEW SAMPLES | - | current has 3 samples, "
                       "fewer than --min-samples 5: no interval |\n"));
  CHECK(contains(text, "REGRESSION: a/graph has too few samples in current to compare (current has 3 samples, fewer "
                       "than --min-samples 5: no interval; --allow-missing lets it pass)\n"));

  CompareOptions relaxed;
  relaxed.allow_missing = true;
  CHECK(graphbench::compare_reports(baseline, current, relaxed).exit_code() == 0);

  CompareOptions lenient;
  lenient.min_samples = 3;
  CHECK(row_of(within_run(baseline, current, lenient), "a", "graph").verdict == Verdict::kSlower);
}

TEST_CASE("compare: bad input is an InputError that names the file", "[compare]") {
  const std::string malformed = compare_file("malformed.json");
  std::string text;
  CHECK(input_error_of([&] { run("malformed.json", text); }) ==
        malformed + ": /records/1/samples_us: expected an array of numbers, got \"x\"");
  const std::string absent = compare_file("absent.json");
  CHECK(input_error_of([&] { run("absent.json", text); }) ==
        absent + ": cannot open results file: No such file or directory");

  RunReport twice;
  twice.records = {timed("a", "graph", {1.0}), timed("a", "eager", {1.0}),
                   timed("a", "graph", {2.0})};
  CHECK(input_error_of([&] { graphbench::check_unique_records(twice, "cur.json"); }) ==
        "cur.json: /records/2: duplicate record for case \"a\", variant \"graph\" (first at "
        "/records/0)");
  CHECK_THROWS_AS(graphbench::compare_reports(RunReport{}, twice, {}), InputError);

  CompareOptions bad;
  bad.threshold = -0.1;
  CHECK(input_error_of([&] { graphbench::compare_reports({}, {}, bad); }) ==
        "--threshold: expected a non-negative number, got -0.1");
  bad.threshold = 0.05;
  bad.min_samples = 0;
  CHECK(input_error_of([&] { graphbench::compare_reports({}, {}, bad); }) ==
        "--min-samples: expected an integer >= 1, got 0");
}

TEST_CASE("compare: a device change is warned about", "[compare]") {
  RunReport baseline = load("baseline.json");
  RunReport current = load("current_unchanged.json");
  current.environment.gpu_name = "NVIDIA H200";
  const CompareResult result = within_run(baseline, current);
  REQUIRE(result.warnings.size() == 1);
  CHECK(contains(result.warnings[0], "consider --metric speedup"));
  CHECK(contains(graphbench::render_comparison(result, {}),
                 "warning: the runs used different devices"));
}

TEST_CASE("compare: a ratio of several medians cancels when the sets are swapped", "[compare]") {
  const std::vector<double> a = around(12.0, 17, 0.05);
  const std::vector<double> b = around(10.0, 23, 0.03);
  const auto four = graphbench::stats::ratio_of_median_products({&a, &b}, {&b, &a});
  CHECK(four.ratio == Approx(1.0));
  CHECK(four.ci95.low <= 1.0);
  CHECK(four.ci95.high >= 1.0);
  const auto two = graphbench::stats::ratio_of_median_products({&a}, {&b});
  CHECK(two.ratio == Approx(1.2).epsilon(0.02));
  CHECK(two.ci95.low < two.ratio);
  CHECK(two.ci95.high > two.ratio);
}

TEST_CASE("compare: an A/A baseline pair raises the threshold to the run-to-run noise", "[compare]") {
  // Each run is tight (1% spread), but two runs of the same code differ by 24% on the host-bound
  // eager step (seen on the H200 machine), and the graph step moves by 0.5%.
  RunReport base;
  base.records = {timed("gelu-small", "eager", around(33.0, 50)), timed("gelu-small", "graph", around(10.8, 50))};
  RunReport aa;
  aa.records = {timed("gelu-small", "eager", around(41.0, 50)), timed("gelu-small", "graph", around(10.75, 50))};
  RunReport current;
  current.records = {timed("gelu-small", "eager", around(40.0, 50)), timed("gelu-small", "graph", around(10.8, 50))};

  // Without the A/A pair (and with one process per run) the eager shift is not judged: its
  // within-run interval is all there is, and a move of 1.21x between processes is no verdict.
  const CompareResult plain = compare_reports(base, current, CompareOptions{});
  CHECK(row_of(plain, "gelu-small", "eager").verdict == Verdict::kUnsure);
  CHECK(std::isnan(row_of(plain, "gelu-small", "eager").aa_noise));
  CHECK(plain.exit_code() == 0);
  // Judged by the within-run rule alone (the baseline as its own A/A pair), it was taken for a regression.
  CHECK(row_of(within_run(base, current), "gelu-small", "eager").verdict == Verdict::kSlower);

  const CompareResult calibrated = compare_reports(base, current, CompareOptions{}, &aa);
  const Comparison& eager = row_of(calibrated, "gelu-small", "eager");
  CHECK(eager.aa_noise == Approx(41.0 / 33.0 - 1.0).epsilon(1e-3));
  CHECK(eager.threshold_used == Approx(eager.aa_noise));
  CHECK(eager.verdict != Verdict::kSlower);
  CHECK(contains(eager.note, "A/A run-to-run noise"));
  CHECK(calibrated.exit_code() == 0);

  // A real regression of the stable graph step is still caught: its A/A noise is 0.5%.
  current.records[1] = timed("gelu-small", "graph", around(16.2, 50));
  const CompareResult regressed = compare_reports(base, current, CompareOptions{}, &aa);
  const Comparison& graph = row_of(regressed, "gelu-small", "graph");
  CHECK(graph.verdict == Verdict::kSlower);
  CHECK(graph.threshold_used == Approx(0.05));
  CHECK(regressed.exit_code() == 1);
}

TEST_CASE("compare: files with no record in common are bad input, not a pass", "[compare]") {
  RunReport baseline, other;
  baseline.environment.suite = "ci";
  other.environment.suite = "gelu";
  baseline.records = {timed("a", "eager", around(10.0, 20))};
  other.records = {timed("b", "eager", around(10.0, 20))};
  CHECK(input_error_of([&] { graphbench::compare_reports(baseline, other, {}); }) ==
        "current: no record (case and variant) in common with baseline: nothing to compare (suites \"gelu\" and "
        "\"ci\")");
  CHECK(input_error_of([&] { graphbench::compare_reports(baseline, RunReport{}, {}); }) ==
        "current: no records: nothing to compare");
  CHECK(input_error_of([&] { graphbench::compare_reports(RunReport{}, baseline, {}); }) ==
        "baseline: no records: nothing to compare against");
  // Different suites that share records compare, with a warning.
  other.records.push_back(timed("a", "eager", around(10.0, 20)));
  const CompareResult shared = within_run(baseline, other);
  REQUIRE(shared.warnings.size() == 1);
  CHECK(shared.warnings[0] == "the runs are of different suites: baseline \"ci\", current \"gelu\"");
}

TEST_CASE("compare: an A/A file of another suite or device is bad input", "[compare]") {
  RunReport baseline;
  baseline.environment.suite = "ci";
  baseline.environment.device = "cuda";
  baseline.environment.gpu_name = "NVIDIA H200";
  baseline.records = {timed("a", "eager", around(10.0, 20))};
  RunReport aa = baseline;
  aa.environment.suite = "blog";
  CHECK(input_error_of([&] { graphbench::compare_reports(baseline, baseline, {}, &aa); }) ==
        "A/A baseline: --aa is a run of suite \"blog\" but baseline is of suite \"ci\": the A/A pair must be two runs "
        "of the same suite");
  aa.environment.suite = "ci";
  aa.environment.gpu_name = "NVIDIA H100";
  CHECK(input_error_of([&] { graphbench::compare_reports(baseline, baseline, {}, &aa); }) ==
        "A/A baseline: --aa ran on cuda NVIDIA H100 but baseline on cuda NVIDIA H200: the A/A pair must be two runs on "
        "the same device");
  aa.environment.gpu_name = "NVIDIA H200";
  aa.records = {timed("z", "eager", around(10.0, 20))};
  CHECK(input_error_of([&] { graphbench::compare_reports(baseline, baseline, {}, &aa); }) ==
        "A/A baseline: --aa has no record (case and variant) in common with baseline");
  aa.records = baseline.records;
  CHECK(graphbench::compare_reports(baseline, baseline, {}, &aa).exit_code() == 0);
}

TEST_CASE("compare: a corrupt baseline is bad input naming the file, never a regression", "[compare]") {
  std::ostringstream out;
  CHECK_THAT(input_error_of([&] {
               graphbench::run_compare(compare_file("overflow.json"), compare_file("current_slower.json"), {}, out);
             }),
             Catch::Contains(compare_file("overflow.json") + ": line "));
  CHECK_THAT(input_error_of([&] {
               graphbench::run_compare(compare_file("baseline.json"), compare_file("overflow.json"), {}, out);
             }),
             Catch::Contains("does not fit in a double"));
}

TEST_CASE("compare: a training run 1.5x slower in every time is a regression", "[compare][training]") {
  const RunReport baseline = load("training_baseline.json");
  const RunReport slower = load("training_slower.json");
  // Without an A/A pair a training run of one process is judged only beyond 75%: 1.5x passes.
  const CompareResult plain = graphbench::compare_reports(baseline, slower, {});
  CHECK(plain.exit_code() == 0);
  for (const Comparison& row : plain.rows) CHECK(row.verdict != Verdict::kSlower);
  const CompareResult result = within_run(baseline, slower);
  bool any_step = false, any_total = false;
  for (const Comparison& row : result.rows) {
    INFO(row.case_name << "/" << row.variant << " " << row.measure << ": " << row.note);
    if (row.measure == graphbench::kMeasureStepTime) {
      any_step = true;
      CHECK(row.verdict == Verdict::kSlower);
      CHECK(row.ratio == Approx(1.5).epsilon(0.01));
    } else if (row.measure == graphbench::kMeasureTotalTime) {
      any_total = true;
      CHECK(row.verdict == Verdict::kSlower);
      CHECK(row.ratio == Approx(1.5).epsilon(1e-9));
    } else {
      CHECK(row.measure == graphbench::kMeasureAccuracy);
      CHECK(row.verdict == Verdict::kSame);  // accuracy unchanged
    }
  }
  CHECK(any_step);
  CHECK(any_total);
  CHECK(result.exit_code() == 1);
  std::string text;
  std::ostringstream out;
  CHECK(graphbench::run_compare(compare_file("training_baseline.json"), compare_file("training_slower.json"), {}, out,
                                compare_file("training_baseline.json")) == 1);
  CHECK(contains(out.str(), "total time is 1.50x slower (threshold 5.0%)"));

  // The same run against itself passes: totals and accuracies SAME, step times SAME or UNSURE (nine
  // blocks of a CPU run resampled on both sides give a wide interval, never a regression).
  const CompareResult same = graphbench::compare_reports(baseline, baseline, {});
  for (const Comparison& row : same.rows) {
    if (row.measure == graphbench::kMeasureStepTime) {
      CHECK((row.verdict == Verdict::kSame || row.verdict == Verdict::kUnsure));
    } else {
      CHECK(row.verdict == Verdict::kSame);
    }
  }
  CHECK(same.exit_code() == 0);
}

TEST_CASE("compare: a drop of final test accuracy beyond the tolerance is a regression", "[compare][training]") {
  const RunReport baseline = load("training_baseline.json");
  const CompareResult dropped = graphbench::compare_reports(baseline, load("training_less_accurate.json"), {});
  REQUIRE(dropped.regressions().size() >= 1);
  for (const Comparison* row : dropped.regressions()) {
    CHECK(row->verdict == Verdict::kLessAccurate);
    CHECK(row->measure == graphbench::kMeasureAccuracy);
    CHECK(row->baseline_median_us - row->current_median_us > 0.01);
    CHECK(contains(row->note, "more than the tolerance 0.0100"));
  }
  CHECK(dropped.exit_code() == 1);
  std::ostringstream out;
  CHECK(graphbench::run_compare(compare_file("training_baseline.json"), compare_file("training_less_accurate.json"), {},
                                out) == 1);
  CHECK(contains(out.str(), "final test accuracy dropped by"));

  const CompareResult within = graphbench::compare_reports(baseline, load("training_accuracy_within.json"), {});
  for (const Comparison& row : within.rows) {
    INFO(row.case_name << "/" << row.variant << " " << row.measure << ": " << row.note);
    if (row.measure == graphbench::kMeasureAccuracy) {
      CHECK(row.verdict == Verdict::kSame);
      CHECK(row.baseline_median_us - row.current_median_us == Approx(0.005));
    } else {
      CHECK(same_or_unsure(row));  // the times are the baseline's own
    }
  }
  CHECK(within.exit_code() == 0);

  // A wider tolerance lets the larger drop pass too.
  CompareOptions lenient;
  lenient.accuracy_tolerance = 0.5;
  CHECK(graphbench::compare_reports(baseline, load("training_less_accurate.json"), lenient).exit_code() == 0);
}

TEST_CASE("compare: training rows under metric speedup and with an A/A pair", "[compare][training]") {
  const RunReport baseline = load("training_baseline.json");
  const RunReport slower = load("training_slower.json");  // every variant 1.5x: ratios to eager unchanged
  CompareOptions speedup;
  speedup.metric = CompareOptions::Metric::kSpeedup;
  const CompareResult result = graphbench::compare_reports(baseline, slower, speedup);
  for (const Comparison& row : result.rows) {
    INFO(row.case_name << "/" << row.variant << " " << row.measure << ": " << row.note);
    if (row.variant == "eager" && row.measure != graphbench::kMeasureAccuracy) {
      CHECK(row.verdict == Verdict::kNotCompared);
    } else if (row.measure == graphbench::kMeasureTotalTime) {
      CHECK(row.verdict == Verdict::kSame);
      CHECK(row.ratio == Approx(1.0));
    } else {
      CHECK(same_or_unsure(row));
    }
  }
  CHECK(result.exit_code() == 0);
  // An A/A pair whose totals differ by 60% raises the total's threshold above the 1.5x slowdown;
  // the per-step rows still catch it.
  RunReport aa = baseline;
  for (auto& r : aa.records) r.training->total_seconds *= 1.6;
  const CompareResult calibrated = graphbench::compare_reports(baseline, slower, {}, &aa);
  for (const Comparison& row : calibrated.rows) {
    if (row.measure == graphbench::kMeasureTotalTime) CHECK(row.verdict == Verdict::kSame);
    if (row.measure == graphbench::kMeasureStepTime) CHECK(row.verdict == Verdict::kSlower);
  }
}

TEST_CASE("compare: training records without per-step samples still gate the total and accuracy", "[compare][training]") {
  RunReport baseline = load("training_baseline.json");
  for (auto& r : baseline.records) r.samples_us.clear();  // a file written before samples were kept
  RunReport slower = load("training_slower.json");
  for (auto& r : slower.records) r.samples_us.clear();
  const CompareResult result = within_run(baseline, slower);
  for (const Comparison& row : result.rows) {
    if (row.measure == graphbench::kMeasureStepTime) {
      CHECK(row.verdict == Verdict::kNotCompared);
      CHECK(contains(row.note, "no per-step samples"));
    }
  }
  CHECK(result.exit_code() == 1);  // the total time is 1.5x
}

TEST_CASE("compare: an ok record with a sample that is not a positive time is a corrupt file", "[compare]") {
  RunReport baseline;
  baseline.records = {timed("a", "eager", around(10.0, 20))};
  RunReport current = baseline;
  current.records[0].samples_us[3] = std::nan("");  // written as null
  CHECK(input_error_of([&] { graphbench::compare_reports(baseline, current, {}); }) ==
        "current: /records/0/samples_us/3: expected a positive time in an ok record, got null (a corrupt or "
        "hand-edited file)");
  current.records[0].samples_us[3] = -1.0;
  CHECK_THAT(input_error_of([&] { graphbench::compare_reports(current, baseline, {}); }),
             Catch::Contains("baseline: /records/0/samples_us/3: expected a positive time in an ok record, got -1"));
  // A skipped record's samples are not read.
  current.records[0].status = RecordStatus::kSkipped;
  baseline.records.push_back(timed("b", "eager", around(10.0, 20)));
  current.records.push_back(timed("b", "eager", around(10.0, 20)));
  CompareOptions relaxed;
  relaxed.allow_missing = true;  // the skipped record is a lost one: let it pass here
  CHECK(graphbench::compare_reports(baseline, current, relaxed).exit_code() == 0);
}

TEST_CASE("compare: too few samples in the baseline shows no interval and is no regression", "[compare]") {
  RunReport baseline, current;
  baseline.records = {timed("a", "eager", around(30.0, 20)), timed("a", "graph", {10.0, 10.1})};
  current.records = {timed("a", "eager", around(30.0, 20)), timed("a", "graph", around(10.0, 20))};
  const CompareResult result = graphbench::compare_reports(baseline, current, {});
  const Comparison& row = row_of(result, "a", "graph");
  CHECK(row.verdict == Verdict::kFewSamples);
  CHECK_FALSE(row.lost);
  CHECK(row.note == "baseline has 2 samples, fewer than --min-samples 5: no interval; not a regression (record the "
                    "baseline again)");
  CHECK(std::isnan(row.ci95.low));
  CHECK(result.exit_code() == 0);
}

TEST_CASE("compare: under metric speedup, a current eager with too few samples loses its variants' rows", "[compare]") {
  RunReport baseline, current;
  baseline.records = {timed("a", "eager", around(30.0, 20)), timed("a", "graph", around(10.0, 20))};
  current = baseline;
  current.records[0].samples_us = {30.0, 30.2, 29.9};
  CompareOptions speedup;
  speedup.metric = CompareOptions::Metric::kSpeedup;
  const CompareResult result = graphbench::compare_reports(baseline, current, speedup);
  const Comparison& row = row_of(result, "a", "graph");
  CHECK(row.verdict == Verdict::kFewSamples);
  CHECK(row.lost);
  CHECK(row.note == "current eager has 3 samples, fewer than --min-samples 5: no interval");
  CHECK(row.ratio == Approx(1.0).epsilon(0.01));
  CHECK(std::isnan(row.ci95.low));
  CHECK(result.exit_code() == 1);
}

TEST_CASE("compare: a record with fewer samples than its run asked for is FEW SAMPLES", "[compare]") {
  RunReport baseline, current;
  baseline.records = {timed("a", "graph", around(10.0, 20))};
  current.records = {timed("a", "graph", around(10.0, 8))};
  current.records[0].min_samples = 10;  // the case timed out after 8 of its 10 samples
  const CompareResult result = graphbench::compare_reports(baseline, current, {});
  const Comparison& row = row_of(result, "a", "graph");
  CHECK(row.verdict == Verdict::kFewSamples);
  CHECK(row.note == "current has 8 samples, fewer than the 10 its run asked for: no interval");
  CHECK(std::isnan(row.ci95.low));
  CHECK(row.lost);
  CHECK(result.exit_code() == 1);

  current.records[0].min_samples = 8;  // all it asked for
  CHECK(row_of(graphbench::compare_reports(baseline, current, {}), "a", "graph").verdict == Verdict::kSame);
}

namespace {

ResultRecord processes(const std::string& case_name, const std::string& variant, const std::vector<double>& medians,
                       const std::vector<double>& speedups = {}) {
  return graphbench::testing::merged_record(case_name, variant, medians, speedups);
}

RunReport report_of(std::vector<ResultRecord> records) { return graphbench::testing::ci_report(std::move(records)); }

}  // namespace

TEST_CASE("compare by default: unchanged code whose host-bound step moved 1.5x between processes passes",
          "[compare][processes]") {
  // gelu-small's eager step on an H200: 36 to 55 us between processes of one commit.
  const RunReport a = report_of({processes("gelu-small", "eager", {36.0, 55.0, 43.0, 50.0}),
                                 processes("gelu-small", "graph", {12.0, 12.1, 11.9, 12.2})});
  const RunReport b = report_of({processes("gelu-small", "eager", {51.0, 37.0, 52.0, 36.5}),
                                 processes("gelu-small", "graph", {12.1, 12.0, 12.2, 12.3})});
  for (const auto& [baseline, current] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    const CompareResult result = graphbench::compare_reports(*baseline, *current, {});
    for (const Comparison& row : result.rows) {
      INFO(row.variant << ": " << row.note);
      CHECK(row.verdict != Verdict::kSlower);
      CHECK(row.baseline_processes == 4);
      CHECK(row.current_processes == 4);
      CHECK(row.dof == 6.0);
      CHECK(contains(row.note, "process-level sd"));
    }
    CHECK(result.exit_code() == 0);
  }
}

TEST_CASE("compare by default: two runs whose processes agree within themselves but moved 1.54x between runs pass",
          "[compare][processes]") {
  // The processes' medians of two default runs of one commit on an H200 (a3535b7, run-1 and run-6 of
  // results/NVIDIA-H200/aa-default): each run's four processes agree within about 7%, the runs
  // moved 1.54x (eager) and 1.12x (graph); a process-level test alone called both SLOWER.
  const RunReport run1 = report_of({processes("gelu-small", "eager", {30.71, 32.21, 35.3, 32.97}),
                                    processes("gelu-small", "graph", {10.61, 10.85, 10.66, 10.6})});
  const RunReport run6 = report_of({processes("gelu-small", "eager", {52.15, 53.11, 49.89, 47.21}),
                                    processes("gelu-small", "graph", {12.08, 12.49, 11.89, 11.4})});
  const CompareResult result = graphbench::compare_reports(run1, run6, {});
  const Comparison& eager = row_of(result, "gelu-small", "eager");
  INFO(eager.note);
  CHECK(eager.ratio == Approx(1.54).epsilon(0.01));
  CHECK(eager.p_value < 0.001);  // significant for the processes ...
  CHECK(eager.verdict == Verdict::kUnsure);  // ... but within what a whole run has moved
  CHECK(contains(eager.note, "calibrate"));
  CHECK(row_of(result, "gelu-small", "graph").verdict != Verdict::kSlower);
  CHECK(result.exit_code() == 0);
}

TEST_CASE("compare by default: a doubled step in every process is SLOWER and named", "[compare][processes]") {
  const RunReport a = report_of({processes("gelu-small", "eager", {36.0, 55.0, 43.0, 50.0}),
                                 processes("gelu-small", "graph", {12.0, 12.1, 11.9, 12.2})});
  const RunReport slow = report_of({processes("gelu-small", "eager", {51.0, 37.0, 52.0, 36.5}),
                                    processes("gelu-small", "graph", {24.1, 24.3, 23.9, 24.4})});
  const CompareResult result = graphbench::compare_reports(a, slow, {});
  const Comparison& graph = row_of(result, "gelu-small", "graph");
  INFO(graph.note);
  CHECK(graph.verdict == Verdict::kSlower);
  CHECK(graph.ratio == Approx(2.0).epsilon(0.02));
  CHECK(graph.ci95.low > 1.9);
  CHECK(std::isfinite(graph.p_value));
  CHECK(row_of(result, "gelu-small", "eager").verdict != Verdict::kSlower);
  CHECK(result.exit_code() == 1);
  // Metric speedup: the processes' variant / eager ratios.
  const RunReport a_sp = report_of({processes("gelu-small", "eager", {36.0, 55.0, 43.0, 50.0}),
                                    processes("gelu-small", "graph", {12.0, 12.1, 11.9, 12.2}, {3.0, 4.5, 3.6, 4.1})});
  const RunReport slow_sp = report_of({processes("gelu-small", "eager", {51.0, 37.0, 52.0, 36.5}),
                                       processes("gelu-small", "graph", {24.1, 24.3, 23.9, 24.4}, {2.1, 1.5, 2.2, 1.5})});
  CompareOptions by_speedup;
  by_speedup.metric = CompareOptions::Metric::kSpeedup;
  const Comparison& sp = row_of(graphbench::compare_reports(a_sp, slow_sp, by_speedup), "gelu-small", "graph");
  INFO(sp.note);
  CHECK(sp.verdict == Verdict::kSlower);
}

TEST_CASE("compare by default: one process per side is SLOWER only beyond 75%, and says so", "[compare][processes]") {
  const RunReport base = report_of({timed("gelu-small", "eager", around(36.0, 40)), timed("gelu-small", "graph", around(12.0, 40))});
  const RunReport moved = report_of({timed("gelu-small", "eager", around(55.0, 40)), timed("gelu-small", "graph", around(12.1, 40))});
  const CompareResult result = graphbench::compare_reports(base, moved, {});
  const Comparison& eager = row_of(result, "gelu-small", "eager");
  INFO(eager.note);
  CHECK(eager.verdict == Verdict::kUnsure);  // 1.53x from within-run intervals alone is no verdict
  CHECK(eager.ci95.low > 1.05);
  CHECK(contains(eager.note, "one process on a side, no process-level interval"));
  CHECK(result.exit_code() == 0);
  bool warned = false;
  for (const std::string& w : result.warnings) warned = warned || (contains(w, "graphbench calibrate") && contains(w, "--repetitions"));
  CHECK(warned);
  const RunReport doubled = report_of({timed("gelu-small", "eager", around(36.5, 40)), timed("gelu-small", "graph", around(24.3, 40))});
  const CompareResult slow = graphbench::compare_reports(base, doubled, {});
  CHECK(row_of(slow, "gelu-small", "graph").verdict == Verdict::kSlower);
  CHECK(slow.exit_code() == 1);
}

TEST_CASE("compare: a calibration of another suite or GPU is bad input naming the file and the field",
          "[compare][calibration]") {
  const RunReport base = report_of({timed("gelu-small", "eager", around(36.0, 40))});
  graphbench::GateCalibration c;
  c.suite = "blog";
  c.device = "cuda";
  c.gpu_name = "NVIDIA H200";
  CompareOptions options;
  options.calibration = &c;
  graphbench::CompareSources sources;
  sources.calibration = "cal.json";
  CHECK_THAT(input_error_of([&] { graphbench::compare_reports(base, base, options, nullptr, sources); }),
             Catch::Contains("cal.json: /suite: the calibration is of suite \"blog\""));
  c.suite = "ci";
  c.gpu_name = "NVIDIA H100";
  CHECK_THAT(input_error_of([&] { graphbench::compare_reports(base, base, options, nullptr, sources); }),
             Catch::Contains("cal.json: /gpu_name: the calibration was measured on cuda NVIDIA H100"));
}
