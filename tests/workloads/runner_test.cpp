// The case and suite runners with a fake workload: validation before timing, a mismatch fails
// only its variant, a failing case is recorded and the run goes on, bad input is exit code 2.
#include "support/catch.h"

#include "graphbench/core/errors.h"
#include "graphbench/runner/benchmark_case.h"
#include "graphbench/runner/case_summary.h"
#include "graphbench/runner/suite_runner.h"
#include "graphbench/runner/workload_registry.h"

#include <ATen/ATen.h>

namespace {

using namespace graphbench;

// A step that computes y = x * factor; "bad" variants use another factor.
class ScaleRunner final : public VariantRunner {
 public:
  ScaleRunner(at::Tensor x, double factor, bool throws_while_timing, bool validation)
      : x_(std::move(x)), factor_(factor), throws_(throws_while_timing && !validation) {}
  void step() override {
    if (throws_) throw std::runtime_error("boom while timing");
    y_ = x_ * factor_;
    ++steps_;
  }
  std::vector<at::Tensor> observe() override { return {y_.clone()}; }
  std::map<std::string, std::int64_t> counters() const override { return {{"eager_runs", steps_}}; }

 private:
  at::Tensor x_;
  at::Tensor y_;
  double factor_;
  bool throws_;
  std::int64_t steps_ = 0;
};

class FakeCase final : public CaseInstance {
 public:
  std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool validation) override {
    // static computes the wrong thing on purpose; jit throws while it is timed.
    const double factor = variant.execution() == Execution::kStatic ? 2.0 + 1e-3 : 2.0;
    return std::make_unique<ScaleRunner>(at::ones({4}), factor, variant.is_script(), validation);
  }
  StepCost cost() const override { return {32.0, 4.0}; }
};

class FakeWorkload final : public Workload {
 public:
  explicit FakeWorkload(std::string name, bool bad_input = false) : bad_input_(bad_input) {
    descriptor_.name = std::move(name);
    descriptor_.modes = {"inference"};
    descriptor_.kinds = {"benchmark"};
    descriptor_.variants = Variant::all();
    descriptor_.dtypes = {"float32"};
  }
  const WorkloadDescriptor& descriptor() const override { return descriptor_; }
  std::unique_ptr<CaseInstance> instantiate(const CaseSpec&, const CaseContext&) const override {
    if (bad_input_) throw InputError("data.idx: no such file");
    return std::make_unique<FakeCase>();
  }

 private:
  WorkloadDescriptor descriptor_;
  bool bad_input_;
};

CaseSpec fake_case(const std::string& name, const std::string& workload, const std::vector<std::string>& variants) {
  CaseSpec spec;
  spec.name = name;
  spec.workload = workload;
  spec.mode = "inference";
  for (const auto& v : variants) spec.variants.push_back(Variant::named(v));
  spec.sampling.warmup_steps = 1;
  spec.sampling.min_samples = 3;
  spec.sampling.max_samples = 5;
  spec.sampling.min_time_s = 0.001;
  spec.sampling.max_time_s = 2;
  spec.sampling.min_sample_time_ms = 0.05;
  return spec;
}

const ResultRecord& find(const std::vector<ResultRecord>& records, const std::string& variant) {
  for (const auto& r : records) {
    if (r.variant == variant) return r;
  }
  FAIL("no record for " << variant);
  return records.front();
}

}  // namespace

TEST_CASE("benchmark case: validated variants are timed, a mismatch fails only its variant") {
  FakeWorkload workload("fake");
  const auto spec = fake_case("c", "fake", {"eager", "static", "graph", "reference", "jit"});
  const auto records = run_benchmark_case(workload, spec, CaseContext{}, Environment{}, nullptr);
  REQUIRE(records.size() == 5);

  const auto& eager = find(records, "eager");
  CHECK(eager.status == RecordStatus::kOk);
  CHECK(eager.samples_us.size() >= 3);
  REQUIRE(eager.stats.has_value());
  CHECK(eager.stats->median > 0);
  CHECK(eager.speedup_vs_eager == 1.0);
  CHECK(eager.counters.at("eager_runs") > 0);
  REQUIRE(eager.roofline.has_value());
  CHECK(eager.roofline->bytes == 32.0);

  const auto& reference = find(records, "reference");
  CHECK(reference.status == RecordStatus::kOk);
  CHECK(reference.max_abs_error == 0.0);
  REQUIRE(reference.speedup_ci95.has_value());
  CHECK(reference.speedup_ci95->low <= *reference.speedup_vs_eager);

  const auto& wrong = find(records, "static");
  CHECK(wrong.status == RecordStatus::kFailed);
  CHECK_THAT(wrong.reason, Catch::Contains("does not match eager at step 1"));
  CHECK(wrong.samples_us.empty());  // never timed

  const auto& graph = find(records, "graph");
  CHECK(graph.status == RecordStatus::kSkipped);
  CHECK_THAT(graph.reason, Catch::Contains("CUDA graphs need a CUDA device"));

  const auto& timing_failure = find(records, "jit");
  CHECK(timing_failure.status == RecordStatus::kFailed);
  CHECK_THAT(timing_failure.reason, Catch::Contains("failed while timing: boom while timing"));
}

TEST_CASE("benchmark case: the test-only slowdown repeats every step of one variant") {
  FakeWorkload workload("fake");
  const auto spec = fake_case("c", "fake", {"eager", "reference"});
  CaseContext context;
  context.slowdown_variant = "reference";
  context.slowdown_factor = 3;
  const auto records = run_benchmark_case(workload, spec, context, Environment{}, nullptr);
  const auto& slowed = find(records, "reference");
  REQUIRE(slowed.status == RecordStatus::kOk);
  // Every outer step (warm-up, calibration, samples) ran three inner steps: the inner counter is a
  // multiple of three and covers three times the timed steps.
  const std::int64_t inner = slowed.counters.at("eager_runs");
  const auto timed_steps = static_cast<std::int64_t>(slowed.samples_us.size()) * slowed.steps_per_sample;
  CHECK(inner % 3 == 0);
  CHECK(inner >= 3 * timed_steps);
  REQUIRE(!slowed.warnings.empty());
  CHECK_THAT(slowed.warnings.front(), Catch::Contains("slowdown injected"));
}

TEST_CASE("suite: a case with bad input is recorded, the run goes on, exit code 2") {
  WorkloadRegistry workloads;
  workloads.add(std::make_unique<FakeWorkload>("fake"));
  workloads.add(std::make_unique<FakeWorkload>("broken", /*bad_input=*/true));
  SuiteSpec suite;
  suite.path = "suite.json";
  suite.name = "s";
  suite.cases = {fake_case("first", "broken", {"eager", "reference"}), fake_case("second", "fake", {"eager"})};
  const auto outcome = run_suite(suite, workloads, CaseContext{}, Environment{}, nullptr);
  REQUIRE(outcome.report.records.size() == 3);
  CHECK(outcome.report.records[0].status == RecordStatus::kFailed);
  CHECK(outcome.report.records[0].reason == "data.idx: no such file");
  CHECK(outcome.report.records[1].status == RecordStatus::kFailed);
  CHECK(outcome.report.records[2].case_name == "second");
  CHECK(outcome.report.records[2].status == RecordStatus::kOk);
  CHECK(outcome.bad_input);
  CHECK(outcome.exit_code() == kExitBadInput);
}

TEST_CASE("suite: a failed variant makes exit code 1, all ok makes 0") {
  WorkloadRegistry workloads;
  workloads.add(std::make_unique<FakeWorkload>("fake"));
  SuiteSpec suite;
  suite.name = "s";
  suite.cases = {fake_case("ok", "fake", {"eager", "reference"})};
  CHECK(run_suite(suite, workloads, CaseContext{}, Environment{}, nullptr).exit_code() == kExitOk);
  suite.cases = {fake_case("mismatch", "fake", {"eager", "static"})};
  CHECK(run_suite(suite, workloads, CaseContext{}, Environment{}, nullptr).exit_code() == kExitFailure);
}

TEST_CASE("summary: the speedup is eager's median over the variant's, above 1 when the variant is faster") {
  ResultRecord eager_record;
  ResultRecord faster_record;
  ResultRecord slower_record;
  TimedCase timed;
  timed.variants = {{Variant::named("eager"), &eager_record},
                    {Variant::named("static"), &faster_record},
                    {Variant::named("reference"), &slower_record}};
  const std::vector<double> per_step_us = {10.0, 5.0, 40.0};  // eager, about 2x faster, 4x slower
  for (std::size_t i = 0; i < timed.variants.size(); ++i) {
    timed.runners.push_back(std::make_unique<ScaleRunner>(at::ones({1}), 1.0, false, false));
    TimedVariant t;
    t.name = timed.variants[i].variant.name();
    for (int k = 0; k < 30; ++k) {
      const double wobble = 1.0 + 0.01 * static_cast<double>(k % 5);
      t.device_us.push_back(per_step_us[i] * wobble);
      t.host_us.push_back(per_step_us[i] * wobble);
    }
    timed.timed.push_back(t);
  }
  summarize_timing(timed, StepCost{}, Environment{});
  REQUIRE(faster_record.speedup_vs_eager.has_value());
  CHECK(*eager_record.speedup_vs_eager == 1.0);
  CHECK(*faster_record.speedup_vs_eager == Approx(2.0).epsilon(0.01));
  CHECK(faster_record.speedup_ci95->low > 1.0);
  CHECK(*slower_record.speedup_vs_eager == Approx(0.25).epsilon(0.01));
  CHECK(slower_record.speedup_ci95->high < 1.0);
}
