// Clocks acted on and energy per step, on given numbers: NVML's throttle reasons decoded, the
// readings around a variant's samples, the warnings (throttled, clocked down, variants of one case
// more than 5% apart), energy per step and its "too short to resolve" rule, the energy block on a
// scripted clock and counter, compare's clock line, the sweep's energy line and the JSON fields.
#include "support/catch.h"
#include "support/compare_rows.h"
#include "support/error_of.h"
#include "support/records.h"

#include "graphbench/core/clocks/clock_warnings.h"
#include "graphbench/core/clocks/conditions_log.h"
#include "graphbench/core/clocks/energy.h"
#include "graphbench/core/report/json_io.h"
#include "graphbench/core/report/sweep_sections.h"
#include "graphbench/core/sampling/energy_block.h"

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace graphbench;
using Names = std::vector<std::string>;
using testing::contains;

ResultRecord ok_record(const std::string& variant) { return testing::benchmark_record("gelu-small", variant, "cuda"); }

// A record that ran at `mean_mhz`, ending at `end_mhz`, against a reference clock of 1980 MHz.
ResultRecord clocked(const std::string& variant, double mean_mhz, double end_mhz, Names throttle = {}) {
  ResultRecord r = ok_record(variant);
  r.sm_clock_start_mhz = 1980;
  r.sm_clock_end_mhz = end_mhz;
  GpuConditions g;
  g.sm_clock_mean_mhz = mean_mhz;
  g.sm_clock_reference_mhz = 1980;
  g.throttle_reasons = throttle;
  r.gpu_conditions = g;
  return r;
}

}  // namespace

TEST_CASE("clocks: NVML's throttle reason bits are named", "[clocks]") {
  CHECK(throttle_reason_names(0).empty());
  CHECK(throttle_reason_names(0x1) == Names{"idle"});
  CHECK(throttle_reason_names(0x1ff) == Names{"idle", "applications clocks setting", "SW power cap", "HW slowdown",
                                              "sync boost", "SW thermal", "HW thermal", "HW power brake",
                                              "display clocks"});
  CHECK(throttle_reason_names(0x4 | 0x40) == Names{"SW power cap", "HW thermal"});
  CHECK(throttle_reason_names(0x200 | 0x8) == Names{"HW slowdown", "unknown (0x200)"});
  // Under load, "idle" says nothing: a GPU read between samples is often idle for a moment.
  CHECK(throttle_reasons_under_load(0x1).empty());
  CHECK(throttle_reasons_under_load(0x1 | 0x20) == Names{"SW thermal"});
}

TEST_CASE("clocks: the readings around a variant's samples fill its record", "[clocks]") {
  ConditionsLog log;
  log.at_start({1980.0, 2619.0, 40.0, 95.5, 0x20});  // before the samples: not counted
  log.at_start({1000.0, 1000.0, 99.0, 999.0, 0x4});  // only the first start counts
  log.after_sample({1980.0, std::nullopt, std::nullopt, std::nullopt, 0x1});
  log.after_sample({1900.0, std::nullopt, std::nullopt, std::nullopt, 0x4});
  log.after_sample({1850.0, std::nullopt, std::nullopt, std::nullopt, 0x0});
  log.at_end({1200.0, 2619.0, 47.0, 310.0, 0x1});
  ResultRecord r = ok_record("graph");
  log.fill(r, 1980.0);
  CHECK(r.sm_clock_start_mhz == 1980.0);
  CHECK(r.sm_clock_end_mhz == 1850.0);  // after its own last sample, not after the whole case
  REQUIRE(r.gpu_conditions.has_value());
  const GpuConditions& g = *r.gpu_conditions;
  CHECK(g.sm_clock_mean_mhz == Approx((1980.0 + 1900.0 + 1850.0) / 3));
  CHECK(g.sm_clock_reference_mhz == 1980.0);
  CHECK(g.memory_clock_mhz.start == 2619.0);
  CHECK(g.temperature_c.start == 40.0);
  CHECK(g.temperature_c.end == 47.0);
  CHECK(g.power_w.start == 95.5);
  CHECK(g.power_w.end == 310.0);
  CHECK(g.throttle_reasons == Names{"SW power cap"});
}

TEST_CASE("clocks: nothing read (no NVML, the CPU) leaves the record without GPU conditions", "[clocks]") {
  ConditionsLog log;
  log.at_start({});
  log.after_sample({});
  log.at_end({});
  ResultRecord r = ok_record("eager");
  log.fill(r, std::nullopt);
  CHECK_FALSE(r.gpu_conditions.has_value());
  CHECK_FALSE(r.sm_clock_start_mhz.has_value());
  CHECK_FALSE(r.sm_clock_end_mhz.has_value());
  CHECK(variant_clock_warnings(r).empty());
}

TEST_CASE("clocks: steady clocks give no warning", "[clocks]") {
  std::vector<ResultRecord> records{clocked("eager", 1980, 1980), clocked("graph", 1975, 1965)};
  add_clock_warnings({&records[0], &records[1]});
  CHECK(records[0].warnings.empty());
  CHECK(records[1].warnings.empty());
}

TEST_CASE("clocks: a throttle reason other than idle during the samples is a warning", "[clocks]") {
  const auto warnings = variant_clock_warnings(clocked("graph", 1975, 1975, {"SW power cap", "HW slowdown"}));
  REQUIRE(warnings.size() == 1);
  CHECK(contains(warnings[0], "throttled during its samples: NVML reports SW power cap, HW slowdown"));
}

TEST_CASE("clocks: an SM clock at the end well below the reference clock is a warning", "[clocks]") {
  // 1700 MHz is 14% below 1980 MHz: clocked down.
  const auto warnings = variant_clock_warnings(clocked("eager", 1750, 1700));
  REQUIRE(warnings.size() == 1);
  CHECK(contains(warnings[0], "clocked down: SM clock 1700 MHz at the end of its samples, 14% below the reference "
                              "clock 1980 MHz"));
  // 1790 MHz is under 10% below (the limit is 1782 MHz): no warning.
  CHECK(variant_clock_warnings(clocked("eager", 1790, 1790)).empty());
  // Without a reference clock there is nothing to be below.
  ResultRecord no_reference = clocked("eager", 1000, 1000);
  no_reference.gpu_conditions->sm_clock_reference_mhz.reset();
  CHECK(variant_clock_warnings(no_reference).empty());
}

TEST_CASE("clocks: the 5% rule at its edge", "[clocks]") {
  CHECK_FALSE(clocks_apart(1000, 950));  // exactly 5%: not apart
  CHECK(clocks_apart(1000, 949.9));
  CHECK(clocks_apart(949.9, 1000));
  CHECK_FALSE(clocks_apart(1980, 1881));  // 5% of 1980 is 99

  std::vector<ResultRecord> edge{clocked("eager", 1980, 1980), clocked("graph", 1881, 1881)};
  add_clock_warnings({&edge[0], &edge[1]});
  CHECK(edge[1].warnings.empty());

  std::vector<ResultRecord> apart{clocked("eager", 1980, 1980), clocked("graph", 1880, 1880)};
  add_clock_warnings({&apart[0], &apart[1]});
  CHECK(apart[0].warnings.empty());  // the faster-clocked variant is not the one to warn about
  REQUIRE(apart[1].warnings.size() == 1);
  CHECK(contains(apart[1].warnings[0], "clocks apart: ran at SM 1880 MHz, 5.1% below eager's 1980 MHz"));
}

TEST_CASE("clocks: a record without the mean clock is judged by its start and end", "[clocks]") {
  ResultRecord r = ok_record("eager");
  CHECK_FALSE(sm_clock_ran_at(r).has_value());
  r.sm_clock_end_mhz = 1800;
  CHECK(sm_clock_ran_at(r) == 1800.0);
  r.sm_clock_start_mhz = 1900;
  CHECK(sm_clock_ran_at(r) == 1850.0);
}

TEST_CASE("clocks: energy per step from the counter's readings", "[clocks]") {
  EnergyReadings readings;
  readings.counter_available = true;
  readings.first_mj = 1'000'000;
  readings.last_mj = 1'005'000;  // 5 J
  readings.steps = 2000;
  readings.seconds = 0.52;
  readings.updates = 20;
  readings.block_seconds = 0.6;
  const EnergyPerStep e = energy_per_step(readings);
  REQUIRE(e.joules_per_step.has_value());
  CHECK(*e.joules_per_step == Approx(0.0025));
  CHECK(*e.joules == Approx(5.0));
  CHECK(e.steps == 2000);
  CHECK(*e.update_interval_ms == Approx(26.0));
  CHECK(e.unavailable.empty());
}

TEST_CASE("clocks: energy the counter cannot resolve is unavailable, with the reason", "[clocks]") {
  EnergyReadings readings;
  readings.counter_available = true;
  readings.first_mj = 1000;
  readings.last_mj = 2000;
  readings.steps = 100;
  readings.seconds = 4.75;
  readings.updates = 19;  // one short of the rule
  readings.block_seconds = 5.0;
  EnergyPerStep e = energy_per_step(readings);
  CHECK_FALSE(e.joules_per_step.has_value());
  CHECK(e.unavailable ==
        "too short to resolve: the energy counter updated 19 times in 5.00 s of steps, 20 are needed");

  e = energy_per_step(EnergyReadings{});
  CHECK_FALSE(e.joules_per_step.has_value());
  CHECK(contains(e.unavailable, "energy counter cannot be read here"));

  readings.updates = 20;
  readings.last_mj = 500;  // below the first
  CHECK(contains(energy_per_step(readings).unavailable, "went backwards"));

  EnergyReadings not_run;
  not_run.counter_available = true;
  not_run.not_run = "not measured in data-parallel runs";
  CHECK(energy_per_step(not_run).unavailable == "not measured in data-parallel runs");
}

namespace {

// Virtual time in microseconds, and an energy counter that updates every `interval_us` with the
// energy `watts` spent since its last update (in whole millijoules, as NVML counts).
struct ScriptedEnergy final : SampleTimer {
  void start() override {}
  StepTime stop(std::int64_t) override { return {}; }
  double now_s() override { return now_us * 1e-6; }
  std::optional<std::uint64_t> counter() const {
    const double updated_us = std::floor(now_us / interval_us) * interval_us;
    return static_cast<std::uint64_t>(std::llround(watts * updated_us * 1e-3));
  }
  double now_us = 0.0;
  double interval_us = 20'000.0;
  double watts = 250.0;
};

}  // namespace

namespace {

// Virtual time in microseconds for the sampler: a sample's per-step time is the time between
// start() and stop().
struct ScriptedClock final : SampleTimer {
  void start() override { started_us = now_us; }
  StepTime stop(std::int64_t steps) override {
    StepTime t;
    t.device_us = (now_us - started_us) / static_cast<double>(steps);
    t.host_us = t.device_us;
    return t;
  }
  double now_s() override { return now_us * 1e-6; }
  double now_us = 0.0;
  double started_us = 0.0;
};

}  // namespace

TEST_CASE("clocks: the sampler reads the GPU around each sample, off the clock", "[clocks]") {
  ScriptedClock clock;
  std::vector<std::string> log;
  std::vector<TimedVariant> variants(2);
  for (std::size_t i = 0; i < variants.size(); ++i) {
    TimedVariant& v = variants[i];
    v.name = i == 0 ? "eager" : "graph";
    v.step = [&clock, cost = i == 0 ? 50.0 : 10.0] { clock.now_us += cost; };
    // A reading that takes 1 ms: none of it may land in a sample.
    v.before_sample = [&clock, &log, name = v.name] {
      clock.now_us += 1000.0;
      log.push_back("before " + name);
    };
    v.after_sample = [&clock, &log, name = v.name] {
      clock.now_us += 1000.0;
      log.push_back("after " + name);
    };
  }
  SamplingSpec sampling;
  sampling.warmup_steps = 0;
  sampling.min_samples = 3;
  sampling.max_samples = 3;
  sampling.min_time_s = 0.0;
  sampling.min_sample_time_ms = 0.1;
  sample_interleaved(variants, sampling, clock);
  REQUIRE(variants[0].device_us.size() == 3);
  for (double us : variants[0].device_us) CHECK(us == Approx(50.0));
  for (double us : variants[1].device_us) CHECK(us == Approx(10.0));
  // One pair per sample, in the rotated order of the rounds; none around warm-up or calibration.
  CHECK(log == std::vector<std::string>{"before eager", "after eager", "before graph", "after graph",
                                        "before graph", "after graph", "before eager", "after eager",
                                        "before eager", "after eager", "before graph", "after graph"});
}

TEST_CASE("clocks: the energy block reads the counter between its first and last update", "[clocks]") {
  ScriptedEnergy gpu;
  gpu.now_us = 7'300;  // the block starts between two updates of the counter
  std::int64_t steps = 0;
  TimedVariant v;
  v.name = "graph";
  v.steps_per_sample = 10;
  v.step = [&] {
    gpu.now_us += 100.0;  // a step of 100 us at 250 W: 25 mJ
    ++steps;
  };
  const EnergyReadings readings = run_energy_block(v, gpu, [&] { return gpu.counter(); }, 5.0);
  CHECK(readings.updates == kEnergyUpdatesNeeded);
  CHECK(readings.steps == 4000);  // 20 updates of 20 ms, 200 steps each
  const EnergyPerStep e = energy_per_step(readings);
  REQUIRE(e.joules_per_step.has_value());
  CHECK(*e.joules_per_step == Approx(0.025));
  CHECK(*e.update_interval_ms == Approx(20.0));
  CHECK(steps > readings.steps);  // the steps before the counter's first update do not count
}

TEST_CASE("clocks: a counter too slow for the block's time limit gives no figure", "[clocks]") {
  ScriptedEnergy gpu;
  gpu.interval_us = 1'000'000.0;  // updated once a second: 20 updates need 20 s
  TimedVariant v;
  v.steps_per_sample = 100;
  v.step = [&] { gpu.now_us += 100.0; };
  const EnergyReadings readings = run_energy_block(v, gpu, [&] { return gpu.counter(); }, 2.0);
  CHECK(readings.updates < kEnergyUpdatesNeeded);
  CHECK(readings.block_seconds == Approx(2.0).margin(0.01));
  CHECK(contains(energy_per_step(readings).unavailable, "too short to resolve"));
}

TEST_CASE("clocks: without a counter the energy block runs no step", "[clocks]") {
  ScriptedEnergy gpu;
  int steps = 0;
  TimedVariant v;
  v.step = [&] { ++steps; };
  const EnergyReadings readings = run_energy_block(v, gpu, [] { return std::optional<std::uint64_t>{}; }, 5.0);
  CHECK(steps == 0);
  CHECK_FALSE(readings.counter_available);
}

TEST_CASE("clocks: energy against eager within a case", "[clocks]") {
  std::vector<ResultRecord> records{ok_record("eager"), ok_record("graph"), ok_record("graph:replay")};
  records[0].energy = EnergyPerStep{};
  records[0].energy->joules_per_step = 0.004;
  records[1].energy = EnergyPerStep{};
  records[1].energy->joules_per_step = 0.001;
  records[2].energy = EnergyPerStep{};
  records[2].energy->unavailable = "too short to resolve";
  fill_energy_vs_eager({&records[0], &records[1], &records[2]});
  CHECK(records[0].energy->vs_eager == 1.0);
  CHECK(*records[1].energy->vs_eager == Approx(0.25));
  CHECK_FALSE(records[2].energy->vs_eager.has_value());
}

TEST_CASE("clocks: compare says when the current run's clocks sat below the baseline's", "[clocks]") {
  RunReport baseline;
  baseline.records = {clocked("eager", 1980, 1980), clocked("graph", 1980, 1980)};
  RunReport current;
  current.records = {clocked("eager", 1975, 1975), clocked("graph", 1700, 1700)};
  const auto line = clock_comparison_line(baseline, current);
  REQUIRE(line.has_value());
  CHECK(*line == "clocks: 1 of 2 records ran at SM clocks more than 5% below the baseline's (furthest: "
                 "gelu-small/graph at 1700 MHz against 1980 MHz, 14.1% below); a slower figure there may be the "
                 "GPU's clocks, not the code (not a failure by itself)");

  current.records[1] = clocked("graph", 1881, 1881);  // exactly 5% below: held
  CHECK_FALSE(clock_comparison_line(baseline, current).has_value());
  // Faster clocks now, or no clocks on one side: nothing to say.
  CHECK_FALSE(clock_comparison_line(current, baseline).has_value());
  current.records = {ok_record("eager"), ok_record("graph")};
  CHECK_FALSE(clock_comparison_line(baseline, current).has_value());
}

TEST_CASE("clocks: the sweep verdict's energy line", "[clocks]") {
  SweepVerdict v;
  const auto point = [](std::int64_t value, std::optional<double> eager, std::optional<double> graph) {
    SweepPointFigures p;
    p.value = value;
    p.ok = true;
    p.energy_measured = true;
    p.eager_j_per_step = eager;
    p.graph_j_per_step = graph;
    return p;
  };
  v.points = {point(64, 0.0004, 0.0001), point(256, 0.0010, 0.0009), point(8192, 0.0200, 0.0210),
              point(16384, 0.0400, std::nullopt)};
  CHECK(sweep_energy_text(v) == "Energy per step: the graph saves 75% (0.3 mJ) at 64, 10% (0.1 mJ) at 256; costs "
                                "5% more (1 mJ) at 8192; not resolved at 16384.");
  for (auto& p : v.points) p.energy_measured = false;  // a run without --energy on
  CHECK(sweep_energy_text(v).empty());
}

TEST_CASE("clocks: GPU conditions and energy survive a JSON round trip", "[clocks]") {
  RunReport report;
  report.environment.schema_version = 1;
  ResultRecord r = clocked("graph", 1800.5, 1755, {"SW power cap"});
  r.gpu_conditions->memory_clock_mhz = {2619, std::nullopt};
  r.gpu_conditions->temperature_c = {40, 47};
  r.gpu_conditions->power_w = {std::nullopt, 342.25};
  r.energy = EnergyPerStep{};
  r.energy->unavailable = "too short to resolve: the energy counter updated 3 times in 5.00 s of steps, 20 are needed";
  r.energy->steps = 0;
  r.energy->update_interval_ms = 1666.5;
  ResultRecord e = clocked("eager", 1980, 1980);
  e.gpu_conditions->throttle_reasons.reset();  // not readable
  e.energy = EnergyPerStep{};
  e.energy->joules_per_step = 0.0125;
  e.energy->joules = 25.0;
  e.energy->steps = 2000;
  e.energy->seconds = 0.75;
  e.energy->vs_eager = 1.0;
  report.records = {e, r};
  const RunReport back = report_from_json(nlohmann::json::parse(to_json(report).dump()), "mem.json");
  REQUIRE(back.records.size() == 2);
  const ResultRecord& b = back.records[1];
  REQUIRE(b.gpu_conditions.has_value());
  CHECK(b.sm_clock_end_mhz == 1755.0);
  CHECK(b.gpu_conditions->sm_clock_mean_mhz == 1800.5);
  CHECK(b.gpu_conditions->sm_clock_reference_mhz == 1980.0);
  CHECK(b.gpu_conditions->memory_clock_mhz.start == 2619.0);
  CHECK_FALSE(b.gpu_conditions->memory_clock_mhz.end.has_value());
  CHECK(b.gpu_conditions->temperature_c.end == 47.0);
  CHECK_FALSE(b.gpu_conditions->power_w.start.has_value());
  CHECK(b.gpu_conditions->throttle_reasons == Names{"SW power cap"});
  REQUIRE(b.energy.has_value());
  CHECK_FALSE(b.energy->joules_per_step.has_value());
  CHECK(b.energy->unavailable == r.energy->unavailable);
  CHECK(b.energy->update_interval_ms == 1666.5);
  const ResultRecord& a = back.records[0];
  CHECK_FALSE(a.gpu_conditions->throttle_reasons.has_value());
  CHECK(a.energy->joules_per_step == 0.0125);
  CHECK(a.energy->joules == 25.0);
  CHECK(a.energy->steps == 2000);
  CHECK(a.energy->seconds == 0.75);
  CHECK(a.energy->vs_eager == 1.0);
  CHECK(a.energy->unavailable.empty());
}

TEST_CASE("clocks: a results file written before these fields reads without them", "[clocks]") {
  std::ifstream in(testing::golden_path("results_golden.json"));
  auto doc = nlohmann::json::parse(in);
  for (auto& r : doc["records"]) {
    r.erase("gpu_conditions");
    r.erase("energy");
  }
  const RunReport old = report_from_json(doc, "old.json");
  REQUIRE_FALSE(old.records.empty());
  for (const ResultRecord& r : old.records) {
    CHECK_FALSE(r.gpu_conditions.has_value());
    CHECK_FALSE(r.energy.has_value());
  }
  // Its SM clocks (start and end) still count for the warnings and compare's line.
  CHECK(sm_clock_ran_at(old.records[0]) == Approx((1980.0 + 1965.0) / 2));
  CHECK(variant_clock_warnings(old.records[0]).empty());
}

TEST_CASE("clocks: a malformed energy block names the file and the field", "[clocks]") {
  auto doc = nlohmann::json::parse(R"({"schema_version": 1, "records": [
    {"case": "c", "workload": "w", "variant": "eager", "kind": "benchmark", "mode": "inference",
     "dtype": "float32", "device": "cuda", "status": "ok", "energy": {"joules_per_step": "lots", "steps": 1}}]})");
  CHECK(testing::input_error_of([&] { report_from_json(doc, "base.json"); }) ==
        "base.json: /records/0/energy/joules_per_step: expected a number or null, got \"lots\"");
}
