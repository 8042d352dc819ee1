// Captured batch sizes judged as a server uses them, on given numbers (core/sweep/sweep_verdict.h):
// vLLM's default list, padding each real batch up, eager above the largest size, sizes the sweep
// did not measure, the 2%/half aim both ways, and how results.json and results.md show it.
#include "support/catch.h"
#include "support/records.h"

#include "graphbench/core/report/sweep_sections.h"
#include "graphbench/core/sweep/sweep_verdict.h"

namespace {

using graphbench::ResultRecord;
using graphbench::RunReport;
using graphbench::SweepPointFigures;

constexpr std::int64_t kServingMiB = 1024 * 1024;

SweepPointFigures measured(std::int64_t value, double eager_us, double graph_us, std::int64_t pool_mib = 1,
                           double capture_ms = 2.0) {
  SweepPointFigures p;
  p.value = value;
  p.ok = true;
  p.eager_us = eager_us;
  p.step_us = graph_us;
  p.speedup = eager_us / graph_us;
  p.speedup_ci95 = graphbench::stats::Interval{p.speedup * 0.99, p.speedup * 1.01};
  p.pool_bytes = pool_mib * kServingMiB;
  p.capture_ms = capture_ms;
  p.warmup_ms = 1.0;
  return p;
}

// Eager 50..80 us and the graph 10..20 us at 1, 2, 4 and 8.
std::vector<SweepPointFigures> four_points() {
  return {measured(1, 50, 10), measured(2, 60, 11), measured(4, 70, 12), measured(8, 80, 20)};
}

graphbench::SweepVerdict verdict_over(std::vector<SweepPointFigures> points, std::vector<std::int64_t> captured) {
  graphbench::SweepVerdict v;
  v.group = "decode";
  v.axis = "batch";
  v.variant = "graph";
  v.points = std::move(points);
  v.capture_sizes = std::move(captured);
  return v;
}

ResultRecord sweep_record(std::int64_t value, const std::string& variant, double us) {
  ResultRecord r = graphbench::testing::benchmark_record("decode[batch=" + std::to_string(value) + "]", variant, "cuda");
  r.sweep = graphbench::SweepPoint{"decode", "batch", value};
  r.stats = graphbench::stats::Summary{};
  r.stats->count = 10;
  r.stats->median = us;
  return r;
}

// Eager 100 us and the graph 40 us (a pool of 1 MiB, captured in 2 ms) at each size.
RunReport flat_sweep(const std::vector<std::int64_t>& values) {
  RunReport report;
  for (const std::int64_t value : values) {
    report.records.push_back(sweep_record(value, "eager", 100.0));
    ResultRecord g = sweep_record(value, "graph", 40.0);
    g.speedup_vs_eager = 2.5;
    g.speedup_ci95 = graphbench::stats::Interval{2.4, 2.6};
    g.capture_ms = 2.0;
    g.memory = graphbench::MemoryUse{};
    g.memory->graph_pool_bytes = kServingMiB;
    report.records.push_back(g);
  }
  return report;
}

}  // namespace

TEST_CASE("vLLM's default list: 1, 2 and 4, then every multiple of 8 up to the largest batch", "[serving]") {
  const auto sizes = graphbench::vllm_default_capture_sizes();
  REQUIRE(sizes.size() == 35);
  CHECK(std::vector<std::int64_t>(sizes.begin(), sizes.begin() + 6) == std::vector<std::int64_t>{1, 2, 4, 8, 16, 24});
  CHECK(sizes.back() == 256);
  CHECK(graphbench::vllm_default_capture_sizes(20) == std::vector<std::int64_t>{1, 2, 4, 8, 16});
  CHECK(graphbench::vllm_default_capture_sizes(3) == std::vector<std::int64_t>{1, 2});
}

TEST_CASE("each real batch replays the smallest captured size at or above it", "[serving]") {
  const auto cost = graphbench::serving_list_cost(four_points(), {2, 8}, 8);
  // 1 and 2 replay 2's graph (11 us), 3 to 8 replay 8's (20 us).
  REQUIRE(cost.mean_step_us);
  CHECK(*cost.mean_step_us == Approx((2 * 11.0 + 6 * 20.0) / 8));
  CHECK(cost.graphs == 2);
  CHECK(cost.eager_batches == 0);
  CHECK(cost.pool_each_bytes == 2 * kServingMiB);
  CHECK(*cost.capture_ms == Approx(2 * (2.0 + 1.0)));
  CHECK(cost.missing.empty());
}

TEST_CASE("batches above the largest captured size run eagerly, unmeasured ones interpolated", "[serving]") {
  const auto cost = graphbench::serving_list_cost(four_points(), {2}, 8);
  // 3: between 2 (60) and 4 (70); 5, 6, 7: between 4 (70) and 8 (80).
  CHECK(cost.eager_batches == 6);
  CHECK(cost.eager_interpolated == 4);
  REQUIRE(cost.mean_step_us);
  CHECK(*cost.mean_step_us == Approx((11 + 11 + 65 + 70 + 72.5 + 75 + 77.5 + 80) / 8.0));

  // Beyond the largest measured size there is nothing to interpolate from: no mean.
  const auto beyond = graphbench::serving_list_cost(four_points(), {2}, 10);
  CHECK(beyond.eager_unmeasured == std::vector<std::int64_t>{9, 10});
  CHECK_FALSE(beyond.mean_step_us);

  // No graph at all: every batch runs eagerly.
  const auto none = graphbench::serving_list_cost(four_points(), {}, 4);
  CHECK(none.graphs == 0);
  CHECK(*none.mean_step_us == Approx((50 + 60 + 65 + 70) / 4.0));
  CHECK(none.pool_each_bytes == 0);
}

TEST_CASE("a captured size the sweep did not measure leaves the list unjudged", "[serving]") {
  auto points = four_points();
  points[2].ok = false;  // 4's graph failed
  const auto cost = graphbench::serving_list_cost(points, {3, 4, 8}, 8);
  CHECK(cost.missing == std::vector<std::int64_t>{3, 4});
  CHECK_FALSE(cost.mean_step_us);
  CHECK_FALSE(cost.pool_each_bytes);
  CHECK_FALSE(cost.capture_ms);

  // vLLM's list over 1..32 has 24, which a sweep over powers of two lacks: the judgement is made
  // over the measured sizes (vLLM's list without 24), and names 24.
  std::vector<SweepPointFigures> powers;
  for (const std::int64_t b : {1, 2, 4, 8, 16, 32}) powers.push_back(measured(b, 100, 40));
  const auto c = graphbench::compare_with_vllm(verdict_over(powers, {32}));
  CHECK(c.max_batch == 32);
  CHECK(c.vllm_unmeasured == std::vector<std::int64_t>{24});
  CHECK(c.vllm.sizes == std::vector<std::int64_t>{1, 2, 4, 8, 16, 32});
  CHECK(c.vllm.missing.empty());
  CHECK(c.meets_aim);
  CHECK(c.not_judged.empty());
}

TEST_CASE("the aim: within 2% of vLLM's mean step with at most half its graphs and pool memory", "[serving]") {
  // Graph times 100, 100, 100, 100, 110 us at 1, 2, 4, 8, 16; pools 1, 2, 4, 1, 1 MiB.
  std::vector<SweepPointFigures> points = {measured(1, 300, 100, 1), measured(2, 300, 100, 2), measured(4, 300, 100, 4),
                                           measured(8, 300, 100, 1), measured(16, 300, 110, 1)};
  const auto meets = graphbench::compare_with_vllm(verdict_over(points, {8, 16}));
  CHECK(meets.max_batch == 16);
  CHECK(meets.vllm.graphs == 5);
  CHECK(*meets.mean_step_ratio == Approx(1.0));  // both (8 * 100 + 8 * 110) / 16
  CHECK(*meets.graphs_ratio == Approx(0.4));
  CHECK(*meets.pool_ratio == Approx(2.0 / 9.0));
  CHECK(*meets.capture_ratio == Approx(0.4));
  REQUIRE(meets.meets_aim);
  CHECK(*meets.meets_aim);

  // 8's graph now costs 110 us: vLLM's list pads 1 to 4 onto faster graphs, 1.023x the mean step.
  points[3].step_us = 110;
  const auto misses = graphbench::compare_with_vllm(verdict_over(points, {8, 16}));
  CHECK(*misses.mean_step_ratio == Approx(110.0 / ((100 + 100 + 2 * 100 + 4 * 110 + 8 * 110) / 16.0)));
  REQUIRE(misses.meets_aim);
  CHECK_FALSE(*misses.meets_aim);

  // Within 2% but more than half vLLM's pool memory: misses too.
  points[3].step_us = 100;
  points[4].pool_bytes = 20 * kServingMiB;
  CHECK_FALSE(*graphbench::compare_with_vllm(verdict_over(points, {8, 16})).meets_aim);
}

TEST_CASE("results.json and results.md set a batch sweep from 1 against vLLM's list", "[serving]") {
  RunReport report = flat_sweep({1, 2, 4, 8, 16});
  report.shared_pools.push_back({"decode", "graph", {16}, kServingMiB / 2, ""});
  const auto json = graphbench::sweeps_to_json(report);
  REQUIRE(json.size() == 1);
  const auto& c = json[0]["vllm_comparison"];
  CHECK(c["max_batch"] == 16);
  CHECK(c["graphbench"]["sizes"] == nlohmann::json::array({16}));
  CHECK(c["graphbench"]["shared_pool_bytes"] == kServingMiB / 2);
  CHECK(c["vllm"]["sizes"] == nlohmann::json::array({1, 2, 4, 8, 16}));
  CHECK(c["graphs_ratio"] == Approx(0.2));
  CHECK(c["meets_aim"] == true);
  CHECK(c["not_judged"].is_null());

  const std::string md = graphbench::sweeps_markdown(report);
  CHECK(md.find("| graphbench | 16 | 1 | 40 | 0 | 1 (shared: 0.5) | 2 |") != std::string::npos);
  CHECK(c["vllm"]["largest_pool_bytes"] == kServingMiB);
  CHECK(c["shared_pool_ratio_at_most"] == Approx(0.5));
  CHECK(md.find("| vLLM default | 1, 2, 4, 8, 16 | 5 | 40 | 0 | 5 (shared: at least 1) | 10 |") != std::string::npos);
  CHECK(md.find("- graphbench's list against vLLM's: 1.00x the mean step, 0.20x the graphs, 0.20x the pool memory (a "
                "pool each; sharing one pool, as vLLM does: at most 0.50x), 0.20x the capture time: meets the aim "
                "(within 2% of vLLM's mean step with at most half its graphs and pool memory).") != std::string::npos);

  // graphbench's shared pool above half of vLLM's largest graph's pool: vLLM's one shared pool may
  // be that small, so the aim is missed even though a pool each is a fifth of vLLM's.
  RunReport large_shared = flat_sweep({1, 2, 4, 8, 16});
  large_shared.shared_pools.push_back({"decode", "graph", {16}, kServingMiB * 3 / 4, ""});
  const auto missed = graphbench::sweeps_to_json(large_shared)[0]["vllm_comparison"];
  CHECK(missed["pool_ratio"] == Approx(0.2));
  CHECK(missed["shared_pool_ratio_at_most"] == Approx(0.75));
  CHECK(missed["meets_aim"] == false);

  // A sweep that lacks vLLM's 24 is judged over the sizes it measured and says so; one that does
  // not start at batch 1 is not compared.
  CHECK(graphbench::sweeps_markdown(flat_sweep({1, 2, 4, 8, 16, 32})).find(
            ", judged over the measured sizes: vLLM's list without 24, which the sweep did not measure.") !=
        std::string::npos);
  const RunReport from_8 = flat_sweep({8, 16, 32});
  CHECK_FALSE(graphbench::sweeps_to_json(from_8)[0].contains("vllm_comparison"));
  CHECK(graphbench::sweeps_markdown(from_8).find("vLLM") == std::string::npos);
}
