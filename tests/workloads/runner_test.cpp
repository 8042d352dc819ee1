// The case and suite runners with a fake workload: validation before timing, a mismatch fails
// only its variant, a failing case is recorded and the run goes on, bad input is exit code 2.
#include "support/catch.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/interrupt.h"
#include "graphbench/engine/runner/benchmark_case.h"
#include "graphbench/engine/runner/case_profile.h"
#include "graphbench/engine/runner/case_summary.h"
#include "graphbench/engine/runner/suite_runner.h"
#include "graphbench/engine/runner/workload_registry.h"

#include <ATen/ATen.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <sstream>
#include <thread>

namespace {

using namespace graphbench;

// A step that computes y = x * factor; "bad" variants use another factor.
class ScaleRunner final : public VariantRunner {
 public:
  ScaleRunner(at::Tensor x, double factor, bool throws_while_timing, bool validation, double sleep_s = 0.0)
      : x_(std::move(x)), factor_(factor), throws_(throws_while_timing && !validation), sleep_s_(sleep_s) {}
  void step() override {
    if (throws_) throw std::runtime_error("boom while timing");
    if (sleep_s_ > 0) std::this_thread::sleep_for(std::chrono::duration<double>(sleep_s_));
    y_ = x_ * factor_;
    ++steps_;
  }
  std::vector<at::Tensor> observe() override { return {y_.clone()}; }
  std::map<std::string, std::int64_t> counters() const override { return {{"eager_runs", steps_}}; }
  std::vector<GraphFacts> graphs() const override { return graphs_; }
  std::optional<std::int64_t> graphs_per_step() const override { return graphs_per_step_; }
  std::vector<GraphFacts> graphs_;  // what a fake graph variant reports
  std::optional<std::int64_t> graphs_per_step_;

 private:
  at::Tensor x_;
  at::Tensor y_;
  double factor_;
  bool throws_;
  double sleep_s_;
  std::int64_t steps_ = 0;
};

class FakeCase final : public CaseInstance {
 public:
  explicit FakeCase(double validation_step_s = 0.0) : validation_step_s_(validation_step_s) {}
  std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool validation) override {
    // static computes the wrong thing on purpose; jit throws while it is timed; native says it
    // captured a graph of five kernels where it must run one.
    const double factor = variant.execution() == Execution::kStatic ? 2.0 + 1e-3 : 2.0;
    auto runner = std::make_unique<ScaleRunner>(at::ones({4}), factor, variant.is_script(), validation,
                                                validation ? validation_step_s_ : 0.0);
    if (variant.is_native()) runner->graphs_ = {GraphFacts{5, 5, 0, 0}};
    // reference reports two graphs per step, as a graph variant captured in two segments would.
    if (variant.is_reference()) runner->graphs_per_step_ = 2;
    return runner;
  }
  StepCost cost() const override { return {32.0, 4.0}; }
  std::optional<int> expected_kernels_per_step(const Variant& variant) const override {
    if (variant.is_native()) return 1;
    return std::nullopt;
  }

 private:
  double validation_step_s_;  // validation steps sleep this long (a case that looks slow)
};

// A float32 inference benchmark workload named `name`, every variant.
WorkloadDescriptor fake_descriptor(std::string name) {
  WorkloadDescriptor d;
  d.name = std::move(name);
  d.modes = {"inference"};
  d.kinds = {"benchmark"};
  d.variants = Variant::all();
  d.dtypes = {"float32"};
  return d;
}

class FakeWorkload final : public Workload {
 public:
  explicit FakeWorkload(std::string name, bool bad_input = false, double validation_step_s = 0.0)
      : descriptor_(fake_descriptor(std::move(name))), bad_input_(bad_input), validation_step_s_(validation_step_s) {}
  const WorkloadDescriptor& descriptor() const override { return descriptor_; }
  std::unique_ptr<CaseInstance> instantiate(const CaseSpec&, const CaseContext&) const override {
    if (bad_input_) throw InputError("data.idx: no such file");
    return std::make_unique<FakeCase>(validation_step_s_);
  }

 private:
  WorkloadDescriptor descriptor_;
  bool bad_input_;
  double validation_step_s_;
};

// Training runs that return what the test sets: a summary, or a stop request in the middle.
class FakeTrainingWorkload final : public Workload {
 public:
  FakeTrainingWorkload(TrainingSummary summary, bool stop_midway)
      : summary_(std::move(summary)), stop_midway_(stop_midway) {
    descriptor_.name = "trainer";
    descriptor_.modes = {"train"};
    descriptor_.kinds = {"training"};
    descriptor_.variants = {Variant::named("eager"), Variant::named("static")};
    descriptor_.dtypes = {"float32"};
  }
  const WorkloadDescriptor& descriptor() const override { return descriptor_; }
  std::unique_ptr<CaseInstance> instantiate(const CaseSpec&, const CaseContext&) const override { return nullptr; }
  TrainingSummary train(const CaseSpec&, const Variant&, const CaseContext&) const override {
    if (stop_midway_) {
      request_stop(SIGINT);
      throw_if_stop_requested();  // what a training loop does at its next step
    }
    return summary_;
  }

 private:
  WorkloadDescriptor descriptor_;
  TrainingSummary summary_;
  bool stop_midway_;
};

TrainingSummary trained(std::int64_t steps, double accuracy) {
  TrainingSummary t;
  t.train_steps = steps;
  t.total_seconds = 1.5;
  t.median_step_us = steps > 0 ? 100.0 : 0.0;
  t.epochs = {TrainingEpoch{1, 1.0, 0.1, 0, 10, 0.0, 0.0, accuracy}};
  if (steps > 0) {
    t.step_samples_us = {101.0, 99.0, 100.0};
    t.steps_per_block = 100;
  }
  return t;
}

CaseSpec training_case(const std::string& name) {
  CaseSpec spec;
  spec.name = name;
  spec.workload = "trainer";
  spec.kind = "training";
  spec.mode = "train";
  spec.variants = {Variant::named("eager")};
  return spec;
}

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

// By value: a reference returned for a string argument made on the spot reads as dangling to GCC 13.
ResultRecord find(const std::vector<ResultRecord>& records, const std::string& variant) {
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

TEST_CASE("benchmark case: every record carries the case's capture scope, and its runner's graphs per step") {
  FakeWorkload workload("fake");
  auto spec = fake_case("c[scope=layer]", "fake", {"eager", "reference"});
  spec.scope = parse_capture_scope("layer", "test");
  const auto records = run_benchmark_case(workload, spec, CaseContext{}, Environment{}, nullptr);
  const auto& eager = find(records, "eager");
  const auto& reference = find(records, "reference");
  REQUIRE(reference.status == RecordStatus::kOk);
  CHECK(eager.scope == "layer");
  CHECK(reference.scope == "layer");
  CHECK_FALSE(eager.graphs_per_step);
  CHECK(reference.graphs_per_step == 2);
  CHECK_FALSE(reference.launches_per_step);  // no kernel profile on the CPU
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

TEST_CASE("benchmark case: a case that will take long says so first, and how to shorten it") {
  // One eager step takes 20 ms; 2000 warm-up steps of it would take 40 s, within a time limit of
  // 600 s (the timed runner is fast, so the test is not).
  FakeWorkload workload("fake", false, 0.02);
  auto spec = fake_case("slow", "fake", {"eager"});
  spec.sampling.warmup_steps = 2000;
  spec.sampling.max_time_s = 600;
  CaseContext context;
  context.case_names = {"slow", "quick"};
  std::ostringstream log;
  std::ostringstream terminal;
  context.progress = &terminal;
  const auto records = run_benchmark_case(workload, spec, context, Environment{}, &log);
  CHECK(find(records, "eager").status == RecordStatus::kOk);
  CHECK_THAT(log.str(), Catch::Contains("slow: one eager step took "));
  CHECK_THAT(log.str(), Catch::Contains(" ms on this device, so this case needs about "));
  CHECK_THAT(log.str(), Catch::Contains("leave it out (--cases quick), lower its time limit (--max-time 10: "));
  CHECK_THAT(log.str(), Catch::Contains("sample less (--warmup 1"));
  CHECK(log.str().find('\r') == std::string::npos);  // the log gets no progress lines
  CHECK_THAT(terminal.str(), Catch::Contains("\rslow: validating eager (1 of 1), step 1 of 1"));
  CHECK_THAT(terminal.str(), Catch::Contains("\rslow: warming up eager"));

  // A quick case: no note, and no progress without a terminal.
  FakeWorkload quick("fake");
  std::ostringstream quiet_log;
  context.progress = nullptr;
  run_benchmark_case(quick, fake_case("quick", "fake", {"eager"}), context, Environment{}, &quiet_log);
  CHECK(quiet_log.str().find("this case needs") == std::string::npos);
  CHECK(quiet_log.str().find('\r') == std::string::npos);
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

namespace {

// Says in a log when the suite runner gives back what it keeps between its cases.
class KeepingWorkload final : public Workload {
 public:
  KeepingWorkload(std::string name, std::vector<std::string>* log)
      : descriptor_(fake_descriptor(std::move(name))), log_(log) {}
  const WorkloadDescriptor& descriptor() const override { return descriptor_; }
  std::unique_ptr<CaseInstance> instantiate(const CaseSpec&, const CaseContext&) const override { return nullptr; }
  void release_kept() const override { log_->push_back("release " + descriptor_.name); }

 private:
  WorkloadDescriptor descriptor_;
  std::vector<std::string>* log_;
};

}  // namespace

TEST_CASE("suite: what a workload keeps between its cases is given back before another workload's case, and at the end") {
  std::vector<std::string> log;
  WorkloadRegistry workloads;
  workloads.add(std::make_unique<KeepingWorkload>("a", &log));
  workloads.add(std::make_unique<KeepingWorkload>("b", &log));
  SuiteSpec suite;
  suite.name = "s";
  suite.cases = {fake_case("a1", "a", {"eager"}), fake_case("a2", "a", {"eager"}), fake_case("b1", "b", {"eager"}),
                 fake_case("a3", "a", {"eager"})};
  const CaseRunFn run_case = [&](const Workload&, const CaseSpec& spec, const Environment&) {
    log.push_back("run " + spec.name);
    return std::vector<ResultRecord>{};
  };
  run_suite(suite, workloads, CaseContext{}, Environment{}, nullptr, nullptr, run_case);
  CHECK(log == std::vector<std::string>{"run a1", "run a2", "release a", "run b1", "release b", "run a3", "release a",
                                        "release a", "release b"});
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

TEST_CASE("summary: a variant with fewer samples than min_samples has no interval and says so") {
  ResultRecord eager_record;
  ResultRecord short_record;
  ResultRecord full_record;
  TimedCase timed;
  timed.min_samples = 10;
  timed.variants = {{Variant::named("eager"), &eager_record},
                    {Variant::named("static"), &short_record},
                    {Variant::named("reference"), &full_record}};
  const std::vector<std::size_t> counts = {12, 3, 12};  // the static variant timed out after 3 samples
  for (std::size_t i = 0; i < timed.variants.size(); ++i) {
    timed.runners.push_back(std::make_unique<ScaleRunner>(at::ones({1}), 1.0, false, false));
    TimedVariant t;
    t.name = timed.variants[i].variant.name();
    for (std::size_t k = 0; k < counts[i]; ++k) {
      t.device_us.push_back((i == 0 ? 10.0 : 5.0) * (1.0 + 0.01 * static_cast<double>(k % 3)));
      t.host_us.push_back(10.0);
    }
    timed.timed.push_back(t);
  }
  summarize_timing(timed, StepCost{}, Environment{});
  CHECK(short_record.min_samples == 10);
  CHECK(graphbench::has_too_few_samples(short_record));
  REQUIRE(short_record.speedup_vs_eager.has_value());
  CHECK(*short_record.speedup_vs_eager == Approx(2.0).epsilon(0.02));  // the figure, without an interval
  CHECK_FALSE(short_record.speedup_ci95.has_value());
  CHECK(std::isinf(short_record.rel_noise));
  CHECK_THAT(short_record.warnings.back(),
             Catch::Matchers::Equals("3 samples, fewer than min_samples 10: the median and the speedup have no interval"));
  CHECK_FALSE(graphbench::has_too_few_samples(full_record));
  CHECK(full_record.speedup_ci95.has_value());

  // An eager reference with too few samples takes the interval of every variant's speedup.
  timed.timed[0].device_us.resize(4);
  for (ResultRecord* r : {&eager_record, &short_record, &full_record}) *r = ResultRecord{};
  summarize_timing(timed, StepCost{}, Environment{});
  CHECK_FALSE(full_record.speedup_ci95.has_value());
  CHECK_THAT(full_record.warnings.back(),
             Catch::Matchers::Equals("eager has 4 samples, fewer than min_samples 10: the speedup has no interval"));
}

TEST_CASE("training case: a run that trained nothing fails with the reason") {
  WorkloadRegistry workloads;
  TrainingSummary nothing = trained(0, 0.0);
  nothing.skipped_batches = 1;
  workloads.add(std::make_unique<FakeTrainingWorkload>(nothing, false));
  SuiteSpec suite;
  suite.name = "s";
  suite.cases = {training_case("tiny")};
  const auto outcome = run_suite(suite, workloads, CaseContext{}, Environment{}, nullptr);
  REQUIRE(outcome.report.records.size() == 1);
  const ResultRecord& r = outcome.report.records[0];
  CHECK(r.status == RecordStatus::kFailed);
  CHECK(r.reason == "trained nothing: 0 training steps in 1 epoch(s) over 10 training images (1 short batch(es) "
                    "skipped: fewer images than one batch?)");
  CHECK(outcome.exit_code() == kExitFailure);
}

TEST_CASE("training case: a run that tested nothing fails, one that trained keeps its step samples") {
  WorkloadRegistry workloads;
  workloads.add(std::make_unique<FakeTrainingWorkload>(trained(300, std::nan("")), false));
  SuiteSpec suite;
  suite.name = "s";
  suite.cases = {training_case("no-test")};
  const auto untested = run_suite(suite, workloads, CaseContext{}, Environment{}, nullptr);
  CHECK(untested.report.records[0].status == RecordStatus::kFailed);
  CHECK_THAT(untested.report.records[0].reason, Catch::Contains("tested nothing"));

  WorkloadRegistry good;
  good.add(std::make_unique<FakeTrainingWorkload>(trained(300, 0.85), false));
  const auto outcome = run_suite(suite, good, CaseContext{}, Environment{}, nullptr);
  const ResultRecord& r = outcome.report.records[0];
  REQUIRE(r.status == RecordStatus::kOk);
  CHECK(r.samples_us == (std::vector<double>{101.0, 99.0, 100.0}));  // what compare gates on
  CHECK(r.steps_per_sample == 100);
  REQUIRE(r.stats.has_value());
  CHECK(r.stats->median == 100.0);
}

TEST_CASE("suite: failures reach the error stream even when progress is silenced (-q)") {
  WorkloadRegistry workloads;
  workloads.add(std::make_unique<FakeWorkload>("fake"));
  workloads.add(std::make_unique<FakeWorkload>("broken", /*bad_input=*/true));
  SuiteSpec suite;
  suite.name = "s";
  suite.cases = {fake_case("mismatch", "fake", {"eager", "static"}), fake_case("nodata", "broken", {"eager"})};
  std::ostringstream errors;
  const auto outcome = run_suite(suite, workloads, CaseContext{}, Environment{}, /*log=*/nullptr, &errors);
  CHECK(outcome.exit_code() == kExitBadInput);
  CHECK_THAT(errors.str(), Catch::Contains("graphbench: mismatch/static FAILED: "));
  CHECK_THAT(errors.str(), Catch::Contains("graphbench: nodata/eager FAILED: data.idx: no such file"));
}

TEST_CASE("suite: a stop request keeps the finished cases and drops the one it cut short") {
  WorkloadRegistry workloads;
  workloads.add(std::make_unique<FakeWorkload>("fake"));
  workloads.add(std::make_unique<FakeTrainingWorkload>(trained(300, 0.85), /*stop_midway=*/true));
  SuiteSpec suite;
  suite.name = "s";
  suite.cases = {fake_case("first", "fake", {"eager"}), training_case("cut"), fake_case("never", "fake", {"eager"})};
  std::ostringstream errors;
  const auto outcome = run_suite(suite, workloads, CaseContext{}, Environment{}, nullptr, &errors);
  clear_stop_request();
  CHECK(outcome.report.interrupted);
  CHECK(outcome.report.interrupted_by == "SIGINT");
  REQUIRE(outcome.report.records.size() == 1);
  CHECK(outcome.report.records[0].case_name == "first");
  CHECK(outcome.report.records[0].status == RecordStatus::kOk);
  CHECK_THAT(errors.str(), Catch::Contains("graphbench: SIGINT: case cut did not finish; it is left out of the results"));
}

TEST_CASE("benchmark case: on the CPU the GPU-only fields are absent, never zero, and every record names its method") {
  FakeWorkload workload("fake");
  const auto spec = fake_case("c", "fake", {"eager", "reference", "graph:replay"});
  const auto records = run_benchmark_case(workload, spec, CaseContext{}, Environment{}, nullptr);
  const auto& eager = find(records, "eager");
  REQUIRE(eager.status == RecordStatus::kOk);
  CHECK(eager.method == StepMethod::kRun);
  CHECK(eager.issue_samples_us.empty());
  CHECK_FALSE(eager.issue_median_us.has_value());
  CHECK_FALSE(eager.host_bound.has_value());
  CHECK_FALSE(eager.profile.has_value());
  CHECK_FALSE(eager.memory.has_value());
  CHECK_FALSE(eager.l2.has_value());
  CHECK(eager.graphs.empty());
  const auto& replay = find(records, "graph:replay");
  CHECK(replay.status == RecordStatus::kSkipped);
  CHECK(replay.method == StepMethod::kReplay);
}

TEST_CASE("benchmark case: a variant that runs other kernels than its workload says fails with the count") {
  FakeWorkload workload("fake");
  const auto spec = fake_case("c", "fake", {"eager", "native", "reference"});
  const auto records = run_benchmark_case(workload, spec, CaseContext{}, Environment{}, nullptr);
  const auto& native = find(records, "native");
  CHECK(native.status == RecordStatus::kFailed);
  CHECK_THAT(native.reason, Catch::Contains("launches 5 kernels per replay where this variant must launch 1"));
  CHECK(native.samples_us.empty());  // a failed check is not reported as a timing
  REQUIRE(native.graphs.size() == 1);
  CHECK(native.graphs[0].kernel_nodes == 5);
  CHECK(find(records, "reference").status == RecordStatus::kOk);
}

TEST_CASE("kernel check: the graph's own count decides, else the profile, else nothing") {
  const std::optional<int> one = 1;
  GraphFacts fused;
  fused.kernel_nodes = 1;
  GraphFacts unfused;
  unfused.kernel_nodes = 5;
  GraphFacts uncounted;  // a LibTorch that keeps no graph
  KernelProfile five;
  five.kernels_per_step = 5;
  five.kernels = {{"erf_kernel", 1, 1.5}, {"mul_kernel", 2, 2.0}};
  KernelProfile single;
  single.kernels_per_step = 1;

  CHECK(kernel_check_failure(std::nullopt, {unfused}, five).empty());  // nothing expected
  CHECK(kernel_check_failure(one, {fused}, single).empty());
  CHECK_THAT(kernel_check_failure(one, {unfused}, single), Catch::Contains("launches 5 kernels per replay"));
  // The graph's count is exact: a profile cannot overrule it.
  CHECK(kernel_check_failure(one, {fused}, five).empty());
  // No graph count: the profile decides, and the message names the kernels it saw.
  CHECK_THAT(kernel_check_failure(one, {uncounted}, five), Catch::Contains("a step launches 5 kernels"));
  CHECK_THAT(kernel_check_failure(one, {}, five), Catch::Contains("erf_kernel x1"));
  CHECK(kernel_check_failure(one, {}, single).empty());
  // Neither: nothing can be told, nothing fails.
  CHECK(kernel_check_failure(one, {}, std::nullopt).empty());
}

TEST_CASE("kernel profile: an incomplete profile is taken again, and left out with the reason after three tries") {
  GraphFacts five_nodes;
  five_nodes.kernel_nodes = 5;
  const auto profile_of = [](double kernels) {
    KernelProfile p;
    p.kernels_per_step = kernels;
    p.busy_us_per_step = kernels;
    return p;
  };
  // CUPTI dropped records twice, then the third profile is whole.
  std::vector<double> seen{0.5, 0.0, 5.0};
  int taken = 0;
  std::vector<std::string> warnings;
  const auto flaky = [&]() -> std::optional<KernelProfile> { return profile_of(seen.at(taken++)); };
  const auto whole = profile_until_whole(flaky, {five_nodes}, std::nullopt, warnings);
  REQUIRE(whole.has_value());
  CHECK(whole->kernels_per_step == 5.0);
  CHECK(taken == 3);
  CHECK(warnings.empty());
  // More kernels than the graph holds (a random generator's offset update beside the replay) is whole.
  taken = 0;
  seen = {7.0};
  CHECK(profile_until_whole(flaky, {five_nodes}, std::nullopt, warnings).has_value());
  CHECK(taken == 1);
  // Without a graph: a fraction of a kernel per step (one step's fused kernel seen in ten) is a
  // lost record, taken again.
  taken = 0;
  seen = {0.1, 1.0};
  const auto eager_whole = profile_until_whole(flaky, {}, std::nullopt, warnings);
  REQUIRE(eager_whole.has_value());
  CHECK(eager_whole->kernels_per_step == 1.0);
  CHECK(taken == 2);
  CHECK(warnings.empty());
  // Fewer kernels than the variant must launch: the step's kernel recorded lost (seen on an H200 with
  // other processes profiling the GPU: the feed's copy recorded, the kernel not), taken again; more is
  // whole, for the kernel check to judge.
  const auto copy_only = [&]() -> std::optional<KernelProfile> {
    KernelProfile p = profile_of(seen.at(taken++));
    p.copies_per_step = 1.0;
    return p;
  };
  taken = 0;
  seen = {0.0, 1.0};
  const auto expected_whole = profile_until_whole(copy_only, {}, 1, warnings);
  REQUIRE(expected_whole.has_value());
  CHECK(expected_whole->kernels_per_step == 1.0);
  CHECK(taken == 2);
  taken = 0;
  seen = {3.0};
  CHECK(profile_until_whole(copy_only, {}, 1, warnings).has_value());
  CHECK(taken == 1);
  taken = 0;
  seen = {0.0, 0.0, 0.0};
  CHECK_FALSE(profile_until_whole(copy_only, {}, 1, warnings).has_value());
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("the profiler saw 0 kernels per step where this variant launches 1, 3 times"));
  warnings.clear();
  // Never whole: no profile, and a warning that says why.
  taken = 0;
  const auto empty = [&]() -> std::optional<KernelProfile> {
    ++taken;
    return profile_of(0.0);
  };
  CHECK_FALSE(profile_until_whole(empty, {}, std::nullopt, warnings).has_value());
  CHECK(taken == kProfileAttempts);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("no kernel profile: the profiler recorded no GPU work, 3 times"));
  // No profiler at all: nothing to retry, nothing to warn about.
  taken = 0;
  warnings.clear();
  const auto none = [&]() -> std::optional<KernelProfile> {
    ++taken;
    return std::nullopt;
  };
  CHECK_FALSE(profile_until_whole(none, {five_nodes}, std::nullopt, warnings).has_value());
  CHECK(taken == 1);
  CHECK(warnings.empty());
}

TEST_CASE("kernel check: a profile that misses kernels of a graph is named") {
  GraphFacts five_nodes;
  five_nodes.kernel_nodes = 5;
  KernelProfile saw_five;
  saw_five.kernels_per_step = 5;
  KernelProfile saw_none;
  saw_none.kernels_per_step = 0;
  KernelProfile saw_six;
  saw_six.kernels_per_step = 6;
  CHECK(profiler_visibility_warning({five_nodes}, saw_five).empty());
  CHECK_THAT(profiler_visibility_warning({five_nodes}, saw_none), Catch::Contains("profile of this graph is incomplete"));
  CHECK_THAT(profiler_visibility_warning({five_nodes}, saw_none), Catch::Contains("0 kernels per step"));
  // A step may launch kernels beside the graph (a feed's copy, the random generators' offsets).
  CHECK(profiler_visibility_warning({five_nodes}, saw_six).empty());
  CHECK(profiler_visibility_warning({five_nodes}, std::nullopt).empty());
  CHECK(profiler_visibility_warning({}, saw_none).empty());
}

TEST_CASE("summary: a step whose host time is within 5% of its device time is host-bound") {
  CHECK(is_host_bound(9.6, 10.0));
  CHECK(is_host_bound(9.5, 10.0));
  CHECK(is_host_bound(10.2, 10.0));  // the host can trail the events by a little
  CHECK_FALSE(is_host_bound(9.4, 10.0));
  CHECK_FALSE(is_host_bound(2.0, 50.0));
  CHECK_FALSE(is_host_bound(1.0, 0.0));

  ResultRecord host_bound_record;
  ResultRecord device_bound_record;
  TimedCase timed;
  timed.variants = {{Variant::named("eager"), &host_bound_record}, {Variant::named("reference"), &device_bound_record}};
  timed.l2 = L2Cache::kHot;
  const std::vector<double> device = {10.0, 40.0};
  const std::vector<double> issue = {9.8, 3.0};
  for (std::size_t i = 0; i < 2; ++i) {
    timed.runners.push_back(std::make_unique<ScaleRunner>(at::ones({1}), 1.0, false, false));
    TimedVariant t;
    for (int k = 0; k < 10; ++k) {
      t.device_us.push_back(device[i]);
      t.host_us.push_back(device[i] + 1.0);
      t.issue_us.push_back(issue[i]);
    }
    MemoryPeak m;
    m.peak_allocated = 100 + static_cast<std::int64_t>(i);
    m.peak_reserved = 200;
    m.above_start = 0;
    t.memory = m;
    timed.timed.push_back(t);
  }
  KernelProfile profile;
  profile.kernels_per_step = 5;
  profile.busy_us_per_step = 4.0;
  host_bound_record.profile = profile;
  host_bound_record.graphs = {GraphFacts{5, 5, 1 << 20, 1000}, GraphFacts{5, 5, 2 << 20, 1000}};
  summarize_timing(timed, StepCost{}, Environment{});

  REQUIRE(host_bound_record.host_bound.has_value());
  CHECK(*host_bound_record.host_bound);
  CHECK(host_bound_record.issue_median_us == Approx(9.8));
  CHECK(host_bound_record.issue_samples_us.size() == 10);
  REQUIRE_FALSE(host_bound_record.warnings.empty());
  CHECK_THAT(host_bound_record.warnings.back(), Catch::Contains("host-bound: the GPU waits for the CPU"));
  REQUIRE(host_bound_record.profile->busy_share.has_value());
  CHECK(*host_bound_record.profile->busy_share == Approx(0.4));
  REQUIRE(host_bound_record.memory.has_value());
  CHECK(host_bound_record.memory->peak_allocated_bytes == 100);
  CHECK(host_bound_record.memory->graph_pool_bytes == (3 << 20));
  CHECK(host_bound_record.l2 == L2Cache::kHot);

  REQUIRE(device_bound_record.host_bound.has_value());
  CHECK_FALSE(*device_bound_record.host_bound);
  CHECK(device_bound_record.warnings.empty());
  REQUIRE(device_bound_record.memory.has_value());
  CHECK_FALSE(device_bound_record.memory->graph_pool_bytes.has_value());  // no graphs, no pool
}
