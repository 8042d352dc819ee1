// The Scopes verdict (src/graphbench/core/sweep/scope_verdict, core/report/scope_sections) on given numbers:
// the order of the scopes, the share of the full graph's gain each keeps, the narrowest that keeps
// 95%, what each wider one costs, and the cases without a verdict; the record fields behind it
// through results.json, CSV and Markdown.
#include "support/catch.h"
#include "support/error_of.h"
#include "support/records.h"

#include "graphbench/core/base/version.h"
#include "graphbench/core/record/launches.h"
#include "graphbench/core/report/writers.h"
#include "graphbench/core/report/json_io.h"
#include "graphbench/core/report/sweep_sections.h"
#include "graphbench/core/stats/statistics.h"
#include "graphbench/core/sweep/sweep_verdict.h"

#include <fmt/format.h>

namespace {

using graphbench::GraphFacts;
using graphbench::KernelProfile;
using graphbench::RecordStatus;
using graphbench::ResultRecord;
using graphbench::RunReport;
using graphbench::ScopeFigures;
using graphbench::ScopeVerdict;
using graphbench::testing::benchmark_record;
using nlohmann::json;

constexpr std::int64_t kMiB = 1024 * 1024;

ResultRecord timed(ResultRecord r, double median_us) {
  r.samples_us = {median_us, median_us, median_us};
  r.stats = graphbench::stats::summarize(r.samples_us);
  r.host_stats = graphbench::stats::summarize({median_us * 0.5, median_us * 0.5, median_us * 0.5});
  return r;
}

struct ScopePoint {
  std::string scope;
  double graph_us = 0.0;
  double capture_ms = 0.0;
  double warmup_ms = 0.0;
  std::int64_t pool_mib = 0;
  std::int64_t graphs = 1;
  double launches = 0.0;
};

// One point of a scope sweep of case "llama": eager at 1000 us and the graph variant.
std::vector<ResultRecord> scope_point(const ScopePoint& p, double eager_us = 1000.0) {
  const std::string name = fmt::format("llama[scope={}]", p.scope);
  ResultRecord eager = timed(benchmark_record(name, "eager", "cuda"), eager_us);
  eager.scope = p.scope;
  eager.scope_group = "llama";
  eager.speedup_vs_eager = 1.0;
  ResultRecord graph = timed(benchmark_record(name, "graph", "cuda"), p.graph_us);
  graph.scope = p.scope;
  graph.scope_group = "llama";
  graph.speedup_vs_eager = eager_us / p.graph_us;
  graph.capture_ms = p.capture_ms;
  graph.warmup_ms = p.warmup_ms;
  graph.graphs_per_step = p.graphs;
  graph.launches_per_step = p.launches;
  for (std::int64_t i = 0; i < p.graphs; ++i) {
    GraphFacts g;
    g.pool_reserved_bytes = i == 0 ? p.pool_mib * kMiB : 0;  // the first holds the pool, for round figures
    graph.graphs.push_back(g);
  }
  return {eager, graph};
}

std::vector<ResultRecord> records_of(const std::vector<ScopePoint>& points) {
  std::vector<ResultRecord> out;
  for (const ScopePoint& p : points) {
    for (ResultRecord& r : scope_point(p)) out.push_back(std::move(r));
  }
  return out;
}

// full 2.00x; layer keeps 98%, attention-out 96%, modules=attn 60%.
std::vector<ResultRecord> llama_records() {
  return records_of({{"full", 500.0, 30.0, 5.0, 40, 1, 1.0},
                     {"layer", 510.0, 20.0, 5.0, 20, 32, 40.0},
                     {"attention-out", 520.0, 10.0, 5.0, 10, 33, 97.0},
                     {"modules=attn", 700.0, 8.0, 5.0, 8, 32, 300.0}});
}

std::vector<std::string> scope_order(const ScopeVerdict& v) {
  std::vector<std::string> out;
  for (const ScopeFigures& f : v.scopes) out.push_back(f.scope);
  return out;
}

RunReport report_of(std::vector<ResultRecord> records) {
  RunReport report;
  report.environment.schema_version = graphbench::kResultsSchemaVersion;
  report.environment.tool_version = "9.9.9";
  report.records = std::move(records);
  return report;
}

std::string section_of(const std::vector<ResultRecord>& records) { return graphbench::scopes_markdown(report_of(records)); }

}  // namespace

TEST_CASE("the narrowest scope that keeps 95% of the full graph's gain, and what each wider one costs", "[scope]") {
  const auto verdicts = graphbench::scope_verdicts(llama_records());
  REQUIRE(verdicts.size() == 1);
  const ScopeVerdict& v = verdicts[0];
  CHECK(v.group == "llama");
  CHECK(v.variant == "graph");
  CHECK(v.order == "scope kind");  // no kernel profile: the fixed order of kinds
  CHECK(scope_order(v) == std::vector<std::string>{"modules=attn", "attention-out", "layer", "full"});
  CHECK(v.scopes[0].gain_share.value() == Approx(0.6));
  CHECK(v.scopes[1].gain_share.value() == Approx(0.96));
  CHECK(v.scopes[2].gain_share.value() == Approx(0.98));
  CHECK(v.scopes[3].gain_share.value() == Approx(1.0));
  CHECK(v.scopes[1].pool_bytes == 10 * kMiB);
  CHECK(v.scopes[1].graphs_per_step == 33);
  CHECK(v.scopes[1].host_us.value() == Approx(260.0));
  REQUIRE(v.narrowest);
  CHECK(*v.narrowest == "attention-out");
  CHECK(v.no_verdict.empty());

  const std::string md = section_of(llama_records());
  CHECK(md.find("\n## Scopes\n") != std::string::npos);
  CHECK(md.find("\n### llama: graph\n\n- The narrowest scope that keeps at least 95% of the full graph's gain: "
                "attention-out (96%). Each wider one, against it: layer: +10 ms of capture and warm-up, +10 MiB of "
                "pool, 40 launches per step, keeps 98% of the gain; full: +20 ms of capture and warm-up, +30 MiB of "
                "pool, 1 launch per step, keeps 100% of the gain.\n") != std::string::npos);
  CHECK(md.find("| attention-out | 520 | 1.92x | 33 | 97 | 260 | 15 | 10 | 96% | never |\n") != std::string::npos);
  CHECK(md.find("| modules=attn | 700 | 1.43x | 32 | 300 | 350 | 13 | 8 | 60% | never |\n") != std::string::npos);
}

TEST_CASE("the gain kept is worked out from the step times, against the full scope's eager", "[scope]") {
  // Eager moves between the points (host-bound steps do): layer's own eager is 1300 us, so its
  // speedup (2.55x) beats full's (2.00x), yet its step is slower than full's.
  std::vector<ResultRecord> records;
  for (ResultRecord& r : scope_point({"full", 500.0, 30.0, 5.0, 40, 1, 1.0}, 1000.0)) records.push_back(r);
  for (ResultRecord& r : scope_point({"layer", 510.0, 20.0, 5.0, 20, 32, 40.0}, 1300.0)) records.push_back(r);
  const ScopeVerdict v = graphbench::scope_verdicts(records).at(0);
  REQUIRE(v.scopes.size() == 2);
  CHECK(v.scopes[0].scope == "layer");
  CHECK(v.scopes[0].gain_share.value() == Approx((1000.0 - 510.0) / (1000.0 - 500.0)));
  CHECK(*v.narrowest == "layer");
}

TEST_CASE("a whole step that cannot be captured: the verdict names the fastest scope that captures", "[scope]") {
  std::vector<ResultRecord> records = records_of({{"full", 990.0, 0.0, 0.0, 0, 0, 60.0},
                                                  {"auto", 800.0, 5.0, 1.0, 170, 5, 51.0},
                                                  {"layer", 900.0, 5.0, 1.0, 100, 2, 55.0}});
  for (ResultRecord& r : records) {
    if (r.scope == "full" && r.variant == "graph") r.reason = "ran eagerly, capture failed: nonzero synchronises";
  }
  const ScopeVerdict v = graphbench::scope_verdicts(records).at(0);
  CHECK_FALSE(v.narrowest);
  REQUIRE(v.instead_of_full);
  CHECK(*v.instead_of_full == "auto");
  CHECK(section_of(records).find("- The whole step cannot be captured (its capture failed: it ran eagerly). The "
                                 "fastest scope that captures: auto, 1.25x over eager in 5 graphs per step.\n") !=
        std::string::npos);
  // No scope beats eager: said so.
  for (ResultRecord& r : records) {
    if (r.variant == "graph" && r.scope != "full") {
      r.stats = graphbench::stats::summarize({1100.0, 1100.0, 1100.0});
      r.speedup_vs_eager = 1000.0 / 1100.0;
    }
  }
  const ScopeVerdict none = graphbench::scope_verdicts(records).at(0);
  CHECK_FALSE(none.instead_of_full);
  CHECK(none.no_verdict == "the whole step cannot be captured (it ran eagerly), and no other scope beats eager");
}

TEST_CASE("scopes are ordered by the share of the step's kernels their graphs hold, where every one is known", "[scope]") {
  std::vector<ResultRecord> records = llama_records();
  // The layers hold fewer of the kernels than everything but attention: layer is the narrower.
  const std::map<std::string, double> captured = {{"full", 100}, {"layer", 60}, {"attention-out", 90}, {"modules=attn", 30}};
  for (ResultRecord& r : records) {
    if (r.variant != "graph") continue;
    KernelProfile profile;
    profile.kernels_per_step = 100;
    r.profile = profile;
    for (GraphFacts& g : r.graphs) g.kernel_nodes = 0;
    r.graphs[0].kernel_nodes = static_cast<std::int64_t>(captured.at(r.scope));
  }
  const ScopeVerdict v = graphbench::scope_verdicts(records).at(0);
  CHECK(v.order == "captured share");
  CHECK(scope_order(v) == std::vector<std::string>{"modules=attn", "layer", "attention-out", "full"});
  CHECK(v.scopes[1].captured_share.value() == Approx(60.0 / 100.0).margin(0.01));
  CHECK(*v.narrowest == "layer");
  CHECK(section_of(records).find("- Order: by the share of the step's kernels the graphs hold, least first.") !=
        std::string::npos);
}

TEST_CASE("no narrower scope keeps 95%: the verdict is the whole step, naming the closest", "[scope]") {
  const auto records = records_of({{"full", 500.0, 30.0, 5.0, 40, 1, 1.0},
                                   {"layer", 700.0, 20.0, 5.0, 20, 32, 40.0},
                                   {"attention-out", 800.0, 10.0, 5.0, 10, 33, 97.0}});
  const ScopeVerdict v = graphbench::scope_verdicts(records).at(0);
  CHECK(*v.narrowest == "full");
  CHECK(section_of(records).find("- No scope narrower than the whole step keeps 95% of the full graph's gain (the "
                                 "most: layer, 60%): capture the whole step (full).\n") != std::string::npos);
}

TEST_CASE("without a measured full scope, or one that gains nothing, there is no verdict and it says why", "[scope]") {
  std::vector<ResultRecord> skipped = llama_records();
  for (ResultRecord& r : skipped) {
    if (r.scope == "full" && r.variant == "graph") {
      r = benchmark_record(r.case_name, "graph", "cpu");
      r.scope = "full";
      r.scope_group = "llama";
      r.status = RecordStatus::kSkipped;
      r.reason = "CUDA graphs need a CUDA device; this run is on the CPU";
    }
  }
  const ScopeVerdict v = graphbench::scope_verdicts(skipped).at(0);
  CHECK_FALSE(v.narrowest);
  CHECK(v.no_verdict == "the full scope was not measured (skipped: CUDA graphs need a CUDA device; this run is on the "
                        "CPU): the gain to keep is unknown");
  CHECK_FALSE(v.scopes[0].gain_share);
  CHECK(v.scopes.back().scope == "full");  // not measured: after the measured ones
  const std::string md = section_of(skipped);
  CHECK(md.find("- No verdict: the full scope was not measured (skipped: CUDA graphs need a CUDA device; this run is "
                "on the CPU): the gain to keep is unknown.\n") != std::string::npos);
  CHECK(md.find("| full | not measured: skipped: CUDA graphs need a CUDA device; this run is on the CPU |") !=
        std::string::npos);

  const auto without_full = records_of({{"layer", 510.0, 20.0, 5.0, 20, 32, 40.0}, {"attention-out", 520.0, 10.0, 5.0, 10, 33, 97.0}});
  CHECK(graphbench::scope_verdicts(without_full).at(0).no_verdict ==
        "no full scope was run beside the others: the gain to keep is unknown");

  const auto slower = records_of({{"full", 1100.0, 30.0, 5.0, 40, 1, 1.0}, {"layer", 900.0, 20.0, 5.0, 20, 32, 40.0}});
  CHECK(graphbench::scope_verdicts(slower).at(0).no_verdict ==
        "the full graph is not faster than eager (0.91x): there is no gain to keep");
}

TEST_CASE("a scope that failed is listed as not measured and left out of the verdict", "[scope]") {
  std::vector<ResultRecord> records = llama_records();
  for (ResultRecord& r : records) {
    if (r.scope == "attention-out" && r.variant == "graph") {
      r.status = RecordStatus::kFailed;
      r.reason = "capture failed: operation not permitted when stream is capturing";
    }
  }
  const ScopeVerdict v = graphbench::scope_verdicts(records).at(0);
  CHECK(*v.narrowest == "layer");
  CHECK(scope_order(v) == std::vector<std::string>{"modules=attn", "layer", "full", "attention-out"});
  CHECK(section_of(records).find("- Not measured: attention-out (failed: capture failed: operation not permitted when "
                                 "stream is capturing).\n") != std::string::npos);
}

TEST_CASE("only cases run at two scopes or more are compared", "[scope]") {
  // A case that fixes its scope is no point of a scope sweep; a sweep of one scope compares nothing.
  ResultRecord fixed = timed(benchmark_record("llama", "graph", "cuda"), 500.0);
  fixed.scope = "layer";
  CHECK(graphbench::scope_group_of(fixed).empty());
  const auto one = records_of({{"layer", 510.0, 20.0, 5.0, 20, 32, 40.0}});
  CHECK(graphbench::scope_verdicts(one).empty());
  CHECK(section_of(one).empty());
  // The group is the record's field, not read from its name: a case named like a point is not one.
  ResultRecord named = timed(benchmark_record("llama[scope=layer]", "graph", "cuda"), 500.0);
  named.scope = "layer";
  CHECK(graphbench::scope_group_of(named).empty());
  named.scope_group = "llama[batch=8]";
  CHECK(graphbench::scope_group_of(named) == "llama[batch=8]");
}

TEST_CASE("reference variants, captured by hand whatever the scope, are not judged", "[scope]") {
  std::vector<ResultRecord> records = llama_records();
  for (ResultRecord& r : records) {
    if (r.variant == "graph") r.variant = "reference+graph";
  }
  CHECK(graphbench::scope_verdicts(records).empty());
}

TEST_CASE("launches per step: graph replays plus the kernels run outside the graphs", "[scope]") {
  ResultRecord r = benchmark_record("a", "graph", "cuda");
  CHECK_FALSE(graphbench::launches_per_step(r));  // no profile
  KernelProfile profile;
  profile.kernels_per_step = 120;
  r.profile = profile;
  CHECK(graphbench::launches_per_step(r) == 120.0);  // captured nothing: every kernel launched
  r.graphs_per_step = 2;
  r.graphs = {GraphFacts{50, 60, 1 * kMiB, 0}, GraphFacts{40, 41, 2 * kMiB, 0}};
  CHECK(graphbench::launches_per_step(r) == 2.0 + 30.0);
  CHECK(graphbench::graph_pools_bytes(r) == 2 * kMiB);  // one step's graphs share a pool: counted once
  r.graphs[1].kernel_nodes.reset();
  CHECK_FALSE(graphbench::launches_per_step(r));  // a graph's kernel count unknown
}

TEST_CASE("scope, graphs and launches per step go through results.json, CSV and the Scopes verdict", "[scope]") {
  const RunReport report = report_of(llama_records());
  const json written = graphbench::to_json(report);
  const json& record = written.at("records").at(3);
  CHECK(record.at("scope") == "layer");
  CHECK(record.at("graphs_per_step") == 32);
  CHECK(record.at("launches_per_step") == 40.0);
  CHECK_FALSE(written.at("records").at(1).contains("scope"));  // full: left out, as in older files
  REQUIRE(written.contains("scopes"));
  const json& verdict = written.at("scopes").at(0);
  CHECK(verdict.at("case") == "llama");
  CHECK(verdict.at("narrowest") == "attention-out");
  CHECK(verdict.at("no_verdict").is_null());
  CHECK(verdict.at("keeps_at_least") == 0.95);
  CHECK(verdict.at("scopes").at(1).at("gain_share").get<double>() == Approx(0.96));
  CHECK(verdict.at("scopes").at(1).at("pool_bytes") == 10 * kMiB);

  const RunReport back = graphbench::report_from_json(json::parse(written.dump()), "mem.json");
  CHECK(back.records[3].scope == "layer");
  CHECK(back.records[3].graphs_per_step == 32);
  CHECK(back.records[3].launches_per_step == 40.0);
  CHECK(back.records[1].scope == "full");
  // `graphbench report` judges again from the records: the same verdict.
  CHECK(graphbench::to_json(back).at("scopes") == written.at("scopes"));

  // Where the time goes: a step of 32 segments shows their kernel nodes summed, not listed.
  RunReport profiled = report;
  for (ResultRecord& r : profiled.records) {
    if (r.scope != "layer" || r.variant != "graph") continue;
    for (GraphFacts& g : r.graphs) g.kernel_nodes = 2;
  }
  CHECK(graphbench::render_markdown(profiled).find("| 64 in 32 graphs / step |") != std::string::npos);

  const std::string csv = graphbench::render_csv(report);
  CHECK(csv.find(",scope,graphs_per_step,launches_per_step\n") != std::string::npos);
  CHECK(csv.find(",layer,32,40\n") != std::string::npos);

  CHECK(back.records[3].scope_group == "llama");
  CHECK(written.at("records").at(3).at("scope_group") == "llama");

  // A file written before records carried scope_group: its points are read by their names,
  // NAME[scope=SCOPE] (and NAME[scope=SCOPE][batch=B]), and judged as before.
  json unnamed = written;
  for (json& r : unnamed["records"]) r.erase("scope_group");
  unnamed["records"][3]["case"] = "llama[scope=layer][batch=8]";
  const RunReport unnamed_back = graphbench::report_from_json(unnamed, "older.json");
  CHECK(unnamed_back.records[1].scope_group == "llama");
  CHECK(unnamed_back.records[3].scope_group == "llama[batch=8]");
  CHECK(graphbench::to_json(graphbench::report_from_json(written, "w.json")).at("scopes") ==
        graphbench::to_json(graphbench::report_from_json([&] {
          json legacy = written;
          for (json& r : legacy["records"]) r.erase("scope_group");
          return legacy;
        }(), "legacy.json")).at("scopes"));

  // A file without the fields (written before them) reads the whole step, no graphs per step.
  json old = written;
  old.erase("scopes");
  for (json& r : old["records"]) {
    r.erase("scope");
    r.erase("graphs_per_step");
    r.erase("launches_per_step");
  }
  json bad = written;
  bad["records"][3]["graphs_per_step"] = "many";
  CHECK(graphbench::testing::input_error_of([&] { graphbench::report_from_json(bad, "bad.json"); }) ==
        "bad.json: /records/3/graphs_per_step: expected a non-negative integer or null, got \"many\"");

  const RunReport old_report = graphbench::report_from_json(old, "old.json");
  CHECK(old_report.records[3].scope == "full");
  CHECK_FALSE(old_report.records[3].graphs_per_step);
  CHECK_FALSE(old_report.records[3].launches_per_step);
}

TEST_CASE("graph pools: a step's graphs in one shared pool count once, pools of their own add up", "[scope]") {
  ResultRecord r = benchmark_record("llama[scope=layer]", "graph", "cuda");
  CHECK_FALSE(graphbench::graph_pools_bytes(r));  // no graph
  // Three graphs of one step sharing a pool: each read the pool right after its capture.
  r.scope = "layer";
  r.graphs_per_step = 3;
  for (std::int64_t mib : {10, 25, 40}) {
    GraphFacts g;
    g.pool_reserved_bytes = mib * kMiB;
    r.graphs.push_back(g);
  }
  CHECK(graphbench::graph_pools_bytes(r) == 40 * kMiB);
  // A second feed signature: its three graphs share a pool of their own.
  for (std::int64_t mib : {5, 8, 12}) {
    GraphFacts g;
    g.pool_reserved_bytes = mib * kMiB;
    r.graphs.push_back(g);
  }
  CHECK(graphbench::graph_pools_bytes(r) == 52 * kMiB);
  // A pool each: every graph's pool counts.
  r.scope = "layer:pool-each";
  CHECK(graphbench::graph_pools_bytes(r) == 100 * kMiB);
  // One whole-step graph per feed signature, each its own pool.
  r.scope = "full";
  r.graphs_per_step = 1;
  CHECK(graphbench::graph_pools_bytes(r) == 100 * kMiB);
}

TEST_CASE("the share a scope keeps is shown with the range its step times' intervals allow", "[scope]") {
  std::vector<ResultRecord> records = llama_records();
  for (ResultRecord& r : records) r.rel_noise = 0.01;  // every median +-1%
  const ScopeVerdict v = graphbench::scope_verdicts(records).front();
  REQUIRE(v.narrowest);
  CHECK(*v.narrowest == "attention-out");
  const graphbench::ScopeFigures& chosen = v.scopes[1];
  REQUIRE(chosen.gain_share_ci95);
  // (e - s) / (e - f) with e 1000 +-1%, s 520 +-1%, f 500 +-1%.
  CHECK(chosen.gain_share_ci95->low == Approx((990.0 - 525.2) / (990.0 - 495.0)));
  CHECK(chosen.gain_share_ci95->high == Approx((1010.0 - 514.8) / (1010.0 - 505.0)));
  const std::string md = section_of(records);
  INFO(md);
  CHECK(md.find("attention-out (96% [94%-98%]; within the step times' intervals it may keep less than 95%).") !=
        std::string::npos);
}
