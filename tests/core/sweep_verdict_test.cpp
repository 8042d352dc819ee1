// The verdict of a sweep on given numbers (src/graphbench/core/sweep, core/stats/break_even): break-even,
// crossover, the recommended capture sizes, the plan for sizes between them, the memory, and how
// results.json and results.md show them.
#include "support/catch.h"
#include "support/records.h"

#include "graphbench/core/report/sweep_sections.h"
#include "graphbench/core/stats/break_even.h"
#include "graphbench/core/sweep/sweep_verdict.h"

#include <algorithm>
#include <cmath>

namespace {

using graphbench::RecordStatus;
using graphbench::ResultRecord;
using graphbench::RunReport;
using graphbench::SweepPoint;
using graphbench::SweepPointFigures;

constexpr std::int64_t kMiB = 1024 * 1024;

graphbench::stats::Summary median_of(double us) {
  graphbench::stats::Summary s;
  s.count = 10;
  s.median = us;
  return s;
}

ResultRecord point(std::int64_t value, const std::string& variant, double us) {
  ResultRecord r = graphbench::testing::benchmark_record("a[batch=" + std::to_string(value) + "]", variant, "cuda");
  r.sweep = SweepPoint{"a", "batch", value};
  r.stats = median_of(us);
  return r;
}

// Eager and graph at each size: the graph pays well at small sizes, barely at 16, not at 32.
RunReport sweep_report() {
  const std::vector<std::int64_t> values = {1, 2, 4, 8, 16, 32};
  const std::vector<double> eager = {100, 100, 102, 110, 150, 300};
  const std::vector<double> graph = {40, 41, 45, 60, 140, 310};
  const std::vector<std::int64_t> pool_mib = {1, 1, 2, 4, 8, 16};
  RunReport report;
  for (std::size_t i = 0; i < values.size(); ++i) {
    report.records.push_back(point(values[i], "eager", eager[i]));
    ResultRecord g = point(values[i], "graph", graph[i]);
    const double speedup = eager[i] / graph[i];
    g.speedup_vs_eager = speedup;
    g.speedup_ci95 = graphbench::stats::Interval{speedup * 0.98, speedup * 1.02};
    g.capture_ms = 2.0;
    g.warmup_ms = 1.0;
    g.memory = graphbench::MemoryUse{};
    g.memory->graph_pool_bytes = pool_mib[i] * kMiB;
    if (const auto b = graphbench::stats::break_even(2.0, 1.0, eager[i], graph[i])) {
      g.break_even_replays = b->replays;
      g.break_even_s = b->seconds;
    }
    report.records.push_back(g);
  }
  ResultRecord failed = point(64, "graph", 0);
  failed.stats.reset();
  failed.status = RecordStatus::kFailed;
  failed.reason = "capture failed";
  report.records.push_back(point(64, "eager", 500));
  report.records.push_back(failed);
  return report;
}

}  // namespace

TEST_CASE("break-even: the capture and its warm-up over what each replay saves, rounded up", "[sweep]") {
  const auto b = graphbench::stats::break_even(2.0, 1.0, 100.0, 40.0);
  REQUIRE(b);
  CHECK(b->replays == 50);  // 3000 us / 60 us
  CHECK(b->seconds == Approx(50 * 40e-6));
  CHECK(graphbench::stats::break_even(2.0, 1.0, 100.0, 70.0)->replays == 100);
  CHECK(graphbench::stats::break_even(2.0, 0.0, 100.0, 99.5)->replays == 4000);
  CHECK(graphbench::stats::break_even(0.0, 0.0, 100.0, 40.0)->replays == 1);
  CHECK_FALSE(graphbench::stats::break_even(2.0, 1.0, 100.0, 100.0));  // saves nothing: never repaid
  CHECK_FALSE(graphbench::stats::break_even(2.0, 1.0, 100.0, 120.0));
  CHECK_FALSE(graphbench::stats::break_even(NAN, 1.0, 100.0, 40.0));
  CHECK_FALSE(graphbench::stats::break_even(2.0, 1.0, 100.0, 0.0));
}

TEST_CASE("the crossover, the capture sizes, padding and memory of a sweep, from its records", "[sweep]") {
  RunReport report = sweep_report();
  report.shared_pools.push_back({"a", "graph", {16, 8, 4, 2}, 8 * kMiB, ""});
  const auto verdicts = graphbench::sweep_verdicts(report);
  REQUIRE(verdicts.size() == 1);
  const auto& v = verdicts.front();
  CHECK(v.group == "a");
  CHECK(v.axis == "batch");
  CHECK(v.variant == "graph");
  REQUIRE(v.points.size() == 7);
  CHECK_FALSE(v.points.back().ok);
  CHECK(v.points.back().reason == "graph failed: capture failed");
  // 150/140 = 1.07 with its interval's low end 1.05 > 1: still faster, and still paying 5%.
  CHECK(v.crossover == 16);
  CHECK(v.pays_up_to == 16);
  // 1 is left to padding: replaying 2's graph (41 us) is within 5% of its own (40 us) and pays
  // against eager at 1 (100 us); 2 is not (4's 45 us is 10% above 41 us).
  CHECK(v.capture_sizes == std::vector<std::int64_t>{2, 4, 8, 16});
  REQUIRE(v.plan.size() == 6);
  CHECK(v.plan[0].action == "pad");
  CHECK(v.plan[0].pad_to == 2);
  CHECK(*v.plan[0].speedup == Approx(100.0 / 41.0));
  CHECK(v.plan[1].action == "replay");
  CHECK(v.plan[4].action == "replay");
  CHECK(v.plan[5].action == "eager");  // 32: no captured size above it
  CHECK(v.separate_pools_bytes == (1 + 2 + 4 + 8) * kMiB);
  CHECK(v.shared_pool_bytes == 8 * kMiB);
}

TEST_CASE("the recommendation rule: nothing to capture where the graph never pays, padding only where it pays",
          "[sweep]") {
  const auto figures = [](std::int64_t value, double eager, double graph) {
    SweepPointFigures p;
    p.value = value;
    p.ok = true;
    p.eager_us = eager;
    p.step_us = graph;
    p.speedup = eager / graph;
    p.speedup_ci95 = graphbench::stats::Interval{p.speedup * 0.99, p.speedup * 1.01};
    return p;
  };
  // Never 5% faster: capture nothing, run everything eagerly.
  const std::vector<SweepPointFigures> flat = {figures(1, 100, 98), figures(2, 100, 99)};
  CHECK(graphbench::recommend_capture_sizes(flat).empty());
  for (const auto& s : graphbench::plan_sizes(flat, {})) CHECK(s.action == "eager");
  // The graph's time barely grows: one graph (the largest) serves every smaller size padded.
  const std::vector<SweepPointFigures> cheap = {figures(1, 100, 50), figures(2, 100, 50.5), figures(4, 100, 51)};
  CHECK(graphbench::recommend_capture_sizes(cheap) == std::vector<std::int64_t>{4});
  // Padding 1 up to 4 would be within 5% of its own graph but no faster than eager at 1: capture 1.
  const std::vector<SweepPointFigures> dear = {figures(1, 52, 49), figures(4, 100, 50)};
  CHECK(graphbench::recommend_capture_sizes(dear) == std::vector<std::int64_t>{1, 4});
  // A point whose interval reaches 1 is no candidate, however large its median speedup.
  auto unsure = figures(8, 200, 100);
  unsure.speedup_ci95 = graphbench::stats::Interval{0.9, 3.0};
  CHECK(graphbench::recommend_capture_sizes({unsure}).empty());
}

TEST_CASE("results.json's sweeps and results.md's Sweeps section show the verdict", "[sweep]") {
  RunReport report = sweep_report();
  report.shared_pools.push_back({"a", "graph", {16, 8, 4, 2}, 8 * kMiB, ""});
  const auto json = graphbench::sweeps_to_json(report);
  REQUIRE(json.size() == 1);
  CHECK(json[0]["case"] == "a");
  CHECK(json[0]["crossover"] == 16);
  CHECK(json[0]["capture_sizes"] == nlohmann::json::array({2, 4, 8, 16}));
  CHECK(json[0]["shared_pool_bytes"] == 8 * kMiB);
  CHECK(json[0]["points"][0]["break_even_replays"] == 50);
  CHECK(json[0]["plan"][0]["action"] == "pad");
  CHECK(json[0]["points"][6]["ok"] == false);

  const std::string md = graphbench::sweeps_markdown(report);
  INFO(md);
  CHECK(md.find("### a over batch: graph") != std::string::npos);
  CHECK(md.find("- Faster than eager with 95% confidence up to batch=16; pays at least 5% up to batch=16 (over the "
                "measured sizes; not measured at batch=64: neither faster nor slower, not judged).") != std::string::npos);
  CHECK(md.find("- Capture at batch: 2, 4, 8, 16. Memory of keeping them: 15 MiB in one pool each, 8 MiB sharing one "
                "pool.") != std::string::npos);
  CHECK(md.find("- Pad: 1 to 2.") != std::string::npos);
  CHECK(md.find("- Run eagerly: 32.") != std::string::npos);
  // The break-even with its range over the speedup's interval: 50 replays, 50 to 51 within it; at
  // batch 16, where the graph saves little, 300 replays could be 236 to 421.
  CHECK(md.find("| 1 | 100 | 40 | 2.50x [2.45-2.55] | 2 | 1 | 1 | 50 [50-51] (0.002 s) | pad to 2 (2.44x) |") !=
        std::string::npos);
  CHECK(md.find("| 16 | 150 | 140 | 1.07x [1.05-1.09] | 2 | 1 | 8 | 300 [236-421] (0.042 s) | capture |") !=
        std::string::npos);
  CHECK(md.find("| 64 | | | not measured: graph failed: capture failed |") != std::string::npos);

  RunReport plain;
  plain.records.push_back(graphbench::testing::benchmark_record("x", "eager"));
  CHECK(graphbench::sweeps_markdown(plain).empty());
  CHECK(graphbench::sweeps_to_json(plain).empty());
}

namespace {

// A sweep with these speedups at these sizes (each with a +-1% interval); the graph of a size in
// `unmeasured` failed.
RunReport sweep_with_speedups(const std::vector<std::int64_t>& values, const std::vector<double>& speedups,
                              const std::vector<std::int64_t>& unmeasured = {}) {
  RunReport report;
  for (std::size_t i = 0; i < values.size(); ++i) {
    report.records.push_back(point(values[i], "eager", 100.0));
    ResultRecord g = point(values[i], "graph", 100.0 / speedups[i]);
    g.speedup_vs_eager = speedups[i];
    g.speedup_ci95 = graphbench::stats::Interval{speedups[i] * 0.99, speedups[i] * 1.01};
    g.capture_ms = 2.0;
    if (std::find(unmeasured.begin(), unmeasured.end(), values[i]) != unmeasured.end()) {
      g.status = RecordStatus::kFailed;
      g.reason = "capture failed";
      g.stats.reset();
    }
    report.records.push_back(g);
  }
  return report;
}

}  // namespace

TEST_CASE("the crossover stops at the first size that is not faster and names the sizes faster again", "[sweep]") {
  // The MNIST training step of results/NVIDIA-H200/sweeps: faster up to 4096, slower at 8192
  // (0.948 [0.946, 0.952]), 1.02 [1.01, 1.02] at 16384.
  RunReport report;
  const std::vector<std::int64_t> values = {2048, 4096, 8192, 16384};
  const std::vector<double> speedup = {1.42, 1.13, 0.948, 1.02};
  const std::vector<graphbench::stats::Interval> ci = {{1.41, 1.44}, {1.11, 1.14}, {0.946, 0.952}, {1.01, 1.02}};
  for (std::size_t i = 0; i < values.size(); ++i) {
    report.records.push_back(point(values[i], "eager", 1000.0));
    ResultRecord g = point(values[i], "graph", 1000.0 / speedup[i]);
    g.speedup_vs_eager = speedup[i];
    g.speedup_ci95 = ci[i];
    g.capture_ms = 3.0;
    report.records.push_back(g);
  }
  const auto verdicts = graphbench::sweep_verdicts(report);
  REQUIRE(verdicts.size() == 1);
  const auto& v = verdicts.front();
  CHECK(v.crossover == 4096);  // not 16384: 8192 lies between and is slower
  CHECK(v.not_faster_at == 8192);
  CHECK(v.faster_again_at == std::vector<std::int64_t>{16384});
  CHECK(v.pays_up_to == 4096);
  CHECK(v.not_paying_at == 8192);
  CHECK(v.pays_again_at.empty());  // 1.02 is faster, but not 5% faster

  const std::string md = graphbench::sweeps_markdown(report);
  CHECK(md.find("- Faster than eager with 95% confidence up to batch=4096 (not at 8192; faster again at 16384); pays "
                "at least 5% up to batch=4096.\n") != std::string::npos);
  const auto json = graphbench::sweeps_to_json(report);
  CHECK(json[0]["crossover"] == 4096);
  CHECK(json[0]["not_faster_at"] == 8192);
  CHECK(json[0]["faster_again_at"] == nlohmann::json::array({16384}));
  CHECK(json[0]["pays_up_to"] == 4096);
  CHECK(json[0]["not_paying_at"] == 8192);
  CHECK(json[0]["pays_again_at"] == nlohmann::json::array());
}

TEST_CASE("a sweep slower at its smallest size has no crossover and names where it is faster", "[sweep]") {
  const RunReport report = sweep_with_speedups({1, 2, 4, 8}, {0.9, 1.5, 1.3, 0.8});
  const auto v = graphbench::sweep_verdicts(report).front();
  CHECK_FALSE(v.crossover);
  CHECK(v.not_faster_at == 1);
  CHECK(v.faster_again_at == std::vector<std::int64_t>{2, 4});
  CHECK_FALSE(v.pays_up_to);
  CHECK(v.pays_again_at == std::vector<std::int64_t>{2, 4});
  CHECK(graphbench::sweeps_markdown(report).find(
            "- Not faster than eager with 95% confidence at the smallest size, batch=1; faster at 2, 4; pays less "
            "than 5% at the smallest size, batch=1; pays 5% at 2, 4.\n") != std::string::npos);
  CHECK(graphbench::sweeps_to_json(report)[0]["crossover"].is_null());
}

TEST_CASE("a size not measured reads not measured, never not faster, and a run to the largest size names nothing", "[sweep]") {
  const RunReport with_gap = sweep_with_speedups({1, 2, 4, 8}, {2.0, 1.8, 1.6, 1.4}, {4});
  const auto gap = graphbench::sweep_verdicts(with_gap).front();
  CHECK(gap.crossover == 8);
  CHECK_FALSE(gap.not_faster_at);
  CHECK(gap.faster_again_at.empty());
  CHECK(gap.not_measured == std::vector<std::int64_t>{4});
  const std::string gap_md = graphbench::sweeps_markdown(with_gap);
  INFO(gap_md);
  CHECK(gap_md.find("- Faster than eager with 95% confidence up to batch=8; pays at least 5% up to batch=8 (over the "
                    "measured sizes; not measured at batch=4: neither faster nor slower, not judged).\n") !=
        std::string::npos);
  CHECK(gap_md.find("not at 4") == std::string::npos);
  CHECK(graphbench::sweeps_to_json(with_gap)[0]["not_measured"] == nlohmann::json::array({4}));

  const RunReport whole = sweep_with_speedups({1, 2, 4}, {2.0, 1.8, 1.6});
  const auto v = graphbench::sweep_verdicts(whole).front();
  CHECK(v.crossover == 4);
  CHECK_FALSE(v.not_faster_at);
  CHECK(v.faster_again_at.empty());
  CHECK(graphbench::sweeps_markdown(whole).find(
            "- Faster than eager with 95% confidence up to batch=4; pays at least 5% up to batch=4.\n") !=
        std::string::npos);

  const RunReport never = sweep_with_speedups({1, 2}, {0.9, 0.95});
  CHECK(graphbench::sweeps_markdown(never).find(
            "- Not faster than eager with 95% confidence at any size; pays at least 5% nowhere.\n") != std::string::npos);
}
