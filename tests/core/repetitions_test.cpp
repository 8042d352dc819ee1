// Tests of --repetitions' merge on given numbers: the interval across repetitions
// (core/stats/block_bootstrap.h) and the merged records (core/record/merge_repetitions.h), with their JSON.
#include "support/catch.h"
#include "support/records.h"

#include "graphbench/core/compare/calibration.h"
#include "graphbench/core/base/errors.h"
#include "graphbench/core/record/merge_repetitions.h"
#include "graphbench/core/report/json_io.h"
#include "graphbench/core/stats/block_bootstrap.h"

#include <stdexcept>
#include <vector>

namespace {

using graphbench::RecordStatus;
using graphbench::RepetitionResult;
using graphbench::ResultRecord;
using graphbench::RunReport;
using graphbench::stats::across_runs_interval;
using graphbench::stats::Interval;

ResultRecord timed(const std::string& variant, std::vector<double> samples) {
  ResultRecord r = graphbench::testing::benchmark_record("c", variant);
  r.samples_us = std::move(samples);
  r.stats = graphbench::stats::summarize(r.samples_us);
  r.stop_reason = "noise target reached";
  return r;
}

// A repetition whose eager samples are all `eager_us` and graph samples all `graph_us`; the graph's
// stored speedup and its interval as the repetition's own code would have written them.
RepetitionResult repetition(int index, double eager_us, double graph_us, Interval speedup_ci) {
  RunReport report;
  report.environment.suite = "s";
  report.records.push_back(timed("eager", std::vector<double>(6, eager_us)));
  ResultRecord graph = timed("graph", std::vector<double>(6, graph_us));
  graph.speedup_vs_eager = eager_us / graph_us;
  graph.speedup_ci95 = speedup_ci;
  report.records.push_back(graph);
  return {index, report, ""};
}

}  // namespace

TEST_CASE("across repetitions: medians 10% apart give a t-interval that covers them", "[repetitions]") {
  // log-values' mean and sd, t(0.975, 2) = 4.3027: exp(mean -+ t sd / sqrt(3)).
  const Interval i = across_runs_interval({100.0, 105.0, 110.0}, {{99.5, 100.5}, {104.5, 105.5}, {109.5, 110.5}}, 105.0);
  CHECK(i.low == Approx(93.2059).epsilon(1e-5));
  CHECK(i.high == Approx(118.1077).epsilon(1e-5));
}

TEST_CASE("across repetitions: identical repetitions give the within-run interval", "[repetitions]") {
  const Interval i = across_runs_interval({50.0, 50.0, 50.0}, {{49.0, 51.5}, {49.0, 51.5}, {49.0, 51.5}}, 50.0);
  CHECK(i.low == Approx(49.0));
  CHECK(i.high == Approx(51.5));
}

TEST_CASE("across repetitions: the within-run intervals pooled when wider, the point always inside", "[repetitions]") {
  // Within-run intervals [90, 110] and [81, 121]: their geometric means of bounds, wider than the t-interval.
  const Interval wide = across_runs_interval({100.0, 100.1}, {{90.0, 110.0}, {81.0, 121.0}}, 100.0);
  CHECK(wide.low == Approx(std::sqrt(90.0 * 81.0)));
  CHECK(wide.high == Approx(std::sqrt(110.0 * 121.0)));
  // One repetition: its own interval, stretched to the point estimate.
  const Interval one = across_runs_interval({100.0}, {{99.0, 101.0}}, 102.0);
  CHECK(one.low == Approx(99.0));
  CHECK(one.high == Approx(102.0));
}

TEST_CASE("across repetitions: bad input is refused", "[repetitions]") {
  CHECK_THROWS_AS(across_runs_interval({}, {}, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(across_runs_interval({1.0, 2.0}, {{1.0, 2.0}}, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(across_runs_interval({0.0}, {{1.0, 2.0}}, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(across_runs_interval({1.0}, {{1.0, 2.0}}, -1.0), std::invalid_argument);
}

TEST_CASE("merge: one record per variant with every repetition's samples and figures", "[repetitions]") {
  const std::vector<RepetitionResult> reps{repetition(1, 10.0, 5.0, {1.9, 2.1}), repetition(2, 11.0, 5.5, {1.9, 2.1}),
                                           repetition(3, 12.0, 6.0, {1.9, 2.1})};
  const RunReport merged = graphbench::merge_repetitions(reps, 3);
  REQUIRE(merged.records.size() == 2);
  const ResultRecord& eager = merged.records[0];
  CHECK(eager.variant == "eager");
  CHECK(eager.samples_us.size() == 18);
  CHECK(eager.stats->median == Approx(11.0));
  REQUIRE(eager.repetitions);
  CHECK(eager.repetitions->requested == 3);
  CHECK(eager.repetitions->succeeded == 3);
  REQUIRE(eager.repetitions->runs.size() == 3);
  CHECK(*eager.repetitions->runs[0].median_us == Approx(10.0));
  CHECK(*eager.repetitions->runs[2].median_us == Approx(12.0));
  // The repetitions' medians 10, 11, 12 (each without spread of its own): the t-interval covers them.
  REQUIRE(eager.repetitions->median_ci95);
  CHECK(eager.repetitions->median_ci95->low < 10.0);
  CHECK(eager.repetitions->median_ci95->high > 12.0);
  CHECK(eager.rel_noise == Approx((eager.repetitions->median_ci95->high - eager.repetitions->median_ci95->low) / 22.0));
  CHECK(eager.warnings.empty());
  // The speedup is 2 in every repetition: its interval is the repetitions' own.
  const ResultRecord& graph = merged.records[1];
  CHECK(*graph.speedup_vs_eager == Approx(2.0));
  REQUIRE(graph.speedup_ci95);
  CHECK(graph.speedup_ci95->low == Approx(1.9));
  CHECK(graph.speedup_ci95->high == Approx(2.1));
}

TEST_CASE("merge: a failed repetition is recorded and the others kept", "[repetitions]") {
  std::vector<RepetitionResult> reps{repetition(1, 10.0, 5.0, {1.9, 2.1}), {2, std::nullopt, "was killed by signal 9 (Killed)"},
                                     repetition(3, 10.0, 5.0, {1.9, 2.1})};
  // In repetition 3 the graph variant failed.
  reps[2].report->records[1].status = RecordStatus::kFailed;
  reps[2].report->records[1].reason = "capture failed";
  const RunReport merged = graphbench::merge_repetitions(reps, 3);
  REQUIRE(merged.records.size() == 2);
  const ResultRecord& eager = merged.records[0];
  CHECK(eager.repetitions->succeeded == 2);
  CHECK(eager.samples_us.size() == 12);
  CHECK(eager.repetitions->runs[1].status == "missing");
  CHECK(eager.repetitions->runs[1].reason == "repetition 2 was killed by signal 9 (Killed)");
  REQUIRE(eager.warnings.size() == 1);
  CHECK(eager.warnings[0] == "ok in 2 of 3 repetitions (missing: repetition 2 was killed by signal 9 (Killed))");
  const ResultRecord& graph = merged.records[1];
  CHECK(graph.status == RecordStatus::kOk);
  CHECK(graph.repetitions->succeeded == 1);
  CHECK(graph.repetitions->runs[2].status == "failed");
  CHECK(graph.samples_us.size() == 6);
  CHECK(graph.warnings.back() ==
        "ok in 1 of 3 repetitions (missing: repetition 2 was killed by signal 9 (Killed); failed: capture failed)");
}

TEST_CASE("merge: a record ok in no repetition stays as it failed, no results at all is an error", "[repetitions]") {
  std::vector<RepetitionResult> reps{repetition(1, 10.0, 5.0, {1.9, 2.1}), repetition(2, 10.0, 5.0, {1.9, 2.1})};
  for (auto& rep : reps) {
    rep.report->records[1].status = RecordStatus::kFailed;
    rep.report->records[1].samples_us.clear();
  }
  const RunReport merged = graphbench::merge_repetitions(reps, 2);
  CHECK(merged.records[1].status == RecordStatus::kFailed);
  CHECK(merged.records[1].repetitions->succeeded == 0);
  CHECK_FALSE(merged.records[1].repetitions->median_ci95);
  const std::vector<RepetitionResult> none{{1, std::nullopt, "exited with 1"}};
  CHECK_THROWS_AS(graphbench::merge_repetitions(none, 2), graphbench::InputError);
}

TEST_CASE("merge: the repetitions survive results.json, a single run writes no such key", "[repetitions]") {
  const std::vector<RepetitionResult> reps{repetition(1, 10.0, 5.0, {1.9, 2.1}), repetition(2, 12.0, 6.0, {1.8, 2.2})};
  const RunReport merged = graphbench::merge_repetitions(reps, 2);
  const nlohmann::json document = graphbench::to_json(merged);
  CHECK(document["records"][1]["repetitions"]["succeeded"] == 2);
  const RunReport back = graphbench::report_from_json(document, "merged.json");
  const auto& r = back.records[1].repetitions;
  REQUIRE(r);
  CHECK(r->requested == 2);
  CHECK(r->runs.size() == 2);
  CHECK(*r->runs[1].median_us == Approx(6.0));
  CHECK(r->runs[1].speedup_ci95->high == Approx(2.2));
  CHECK(r->median_ci95->low == Approx(merged.records[1].repetitions->median_ci95->low));
  CHECK(document["records"][1]["repetitions"]["runs"][0]["status"] == "ok");
  CHECK_FALSE(graphbench::to_json(reps[0].report.value())["records"][0].contains("repetitions"));
  nlohmann::json bad = document;
  bad["records"][0]["repetitions"]["median_ci95"] = "wide";
  CHECK_THROWS_WITH(graphbench::report_from_json(bad, "merged.json"),
                    Catch::Contains("merged.json: /records/0/repetitions/median_ci95: expected [low, high]"));
}

TEST_CASE("merge: calibrate's overlap reads the intervals a merged run stores", "[repetitions]") {
  // Two merged runs of the same code whose processes moved by 10%: each run's medians 10, 11, 12
  // and 11, 12, 13 (no spread within a repetition); their stored intervals overlap.
  const RunReport a = graphbench::merge_repetitions(
      {repetition(1, 10.0, 5.0, {1.9, 2.1}), repetition(2, 11.0, 5.5, {1.9, 2.1}), repetition(3, 12.0, 6.0, {1.9, 2.1})}, 3);
  const RunReport b = graphbench::merge_repetitions(
      {repetition(1, 11.0, 5.5, {1.9, 2.1}), repetition(2, 12.0, 6.0, {1.9, 2.1}), repetition(3, 13.0, 6.5, {1.9, 2.1})}, 3);
  const graphbench::IntervalOverlap o = graphbench::interval_overlap({&a, &b});
  CHECK(o.time_stored.pairs == 2);
  CHECK(o.time_stored.overlapping == 2);
  CHECK(o.speedup_stored.pairs == 1);
  CHECK(o.speedup_stored.overlapping == 1);
}

TEST_CASE("merge: warnings once each, named by the repetitions that gave them unless all did", "[repetitions]") {
  std::vector<RepetitionResult> reps{repetition(1, 10.0, 5.0, {1.9, 2.1}), repetition(2, 10.0, 5.0, {1.9, 2.1}),
                                     repetition(3, 10.0, 5.0, {1.9, 2.1})};
  reps[0].report->records[0].warnings = {"noisy", "IQR is 11%"};
  reps[1].report->records[0].warnings = {"noisy"};
  reps[2].report->records[0].warnings = {"noisy", "IQR is 11%"};
  reps[2].report->records[1].warnings = {"IQR is 19%"};
  const RunReport merged = graphbench::merge_repetitions(reps, 3);
  CHECK(merged.records[0].warnings == std::vector<std::string>{"noisy", "repetitions 1, 3: IQR is 11%"});
  CHECK(merged.records[1].warnings == std::vector<std::string>{"repetition 3: IQR is 19%"});
}

TEST_CASE("merge: a repetition with fewer samples than it asked for adds no interval", "[repetitions]") {
  std::vector<RepetitionResult> reps{repetition(1, 10.0, 5.0, {1.9, 2.1}), repetition(2, 20.0, 10.0, {1.9, 2.1})};
  for (ResultRecord& r : reps[1].report->records) r.min_samples = 10;  // 6 samples of 10
  reps[1].report->records[1].speedup_ci95.reset();  // as that repetition wrote it
  const RunReport merged = graphbench::merge_repetitions(reps, 2);
  const ResultRecord& eager = merged.records[0];
  CHECK_FALSE(eager.repetitions->runs[1].median_ci95);
  CHECK(eager.repetitions->succeeded == 2);
  // The interval is repetition 1's alone ([10, 10]), stretched to the merged median (15).
  REQUIRE(eager.repetitions->median_ci95);
  CHECK(eager.repetitions->median_ci95->low == Approx(10.0));
  CHECK(eager.repetitions->median_ci95->high == Approx(15.0));
}
