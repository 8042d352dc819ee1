// Validation against eager must be right both ways: a correct variant whose only differences are
// eager's own rounding, or random numbers the case can turn off, passes (saying how); a wrong
// capture (a stale input, a skipped optimizer update, a parameter left unbound) fails. A fake
// training step stands in for the engine: y = sum(w * x_t) with an Adam-like update
// w -= lr * sign(x_t + dropout noise), observed as (loss, w, b).
#include "support/catch.h"

#include "graphbench/engine/runner/validation.h"

#include <ATen/ATen.h>

#include <chrono>
#include <map>
#include <thread>

namespace {

using namespace graphbench;

constexpr std::int64_t kElements = 1000;
constexpr double kLr = 0.01;

// What a fake variant gets wrong, or how it differs from eager.
enum class Flaw {
  kNone,
  kRounding,       // flips the sign of a few updates, as a non-deterministic reduction would
  kTooMuchNoise,   // flips many more than eager's own runs do
  kStaleInput,     // steps on the first step's input every time
  kSkippedUpdate,  // never updates w
  kUnboundParam,   // updates w but not b
  kOtherRandom,    // its "dropout" draws other numbers than eager's
};

struct Behaviour {
  Flaw flaw = Flaw::kNone;
  int flips = 0;  // kRounding / kTooMuchNoise: updates whose sign flips, per step
  // From the runner numbered wide_from_run on (runners count from 0 in the order they are made),
  // wide_flips instead: a non-deterministic eager whose first runs happen to agree more.
  int wide_flips = 0;
  int wide_from_run = -1;
};

class FakeTrainingStep final : public VariantRunner {
 public:
  FakeTrainingStep(Behaviour behaviour, int run, bool randomness)
      : behaviour_(behaviour), run_(run), randomness_(randomness) {
    w_ = at::linspace(-1.0, 1.0, kElements, at::kDouble);
    b_ = at::zeros({4}, at::kDouble);
  }
  void step() override {
    ++step_;
    const at::Tensor x = input(behaviour_.flaw == Flaw::kStaleInput ? 1 : step_);
    at::Tensor update = x;
    if (randomness_) update = update + dropout_noise();
    update = at::sign(update);
    const int flips = behaviour_.wide_from_run >= 0 && run_ >= behaviour_.wide_from_run ? behaviour_.wide_flips
                                                                                          : behaviour_.flips;
    if (flips > 0) {
      // Different elements per run, as a different reduction order would give.
      const std::int64_t first = (run_ * 37 + step_ * 11) % (kElements - flips);
      update.narrow(0, first, flips).neg_();
    }
    loss_ = (w_ * x).sum().reshape({1});
    if (behaviour_.flaw != Flaw::kSkippedUpdate) w_ = w_ - kLr * update;
    if (behaviour_.flaw != Flaw::kUnboundParam) b_ = b_ - kLr;
  }
  std::vector<at::Tensor> observe() override { return {loss_.clone(), w_.clone(), b_.clone()}; }

 private:
  static at::Tensor input(int step) {
    at::Generator g = at::detail::createCPUGenerator(static_cast<std::uint64_t>(100 + step));
    return at::randn({kElements}, g, at::kDouble);
  }
  at::Tensor dropout_noise() const {
    const std::uint64_t seed = behaviour_.flaw == Flaw::kOtherRandom ? 999 : 7;
    at::Generator g = at::detail::createCPUGenerator(seed + static_cast<std::uint64_t>(step_));
    return at::randn({kElements}, g, at::kDouble) * 3.0;
  }

  Behaviour behaviour_;
  int run_;
  bool randomness_;
  int step_ = 0;
  at::Tensor w_, b_, loss_;
};

// A runner whose steps take at least `time`: validation's time budget on a known lower bound.
class SlowStep final : public VariantRunner {
 public:
  SlowStep(std::unique_ptr<VariantRunner> inner, std::chrono::milliseconds time) : inner_(std::move(inner)), time_(time) {}
  void step() override {
    std::this_thread::sleep_for(time_);
    inner_->step();
  }
  std::vector<at::Tensor> observe() override { return inner_->observe(); }

 private:
  std::unique_ptr<VariantRunner> inner_;
  std::chrono::milliseconds time_;
};

class FakeTrainingCase final : public CaseInstance {
 public:
  std::map<std::string, Behaviour> behaviour;  // by variant name; eager's flips are its own spread
  bool random = false;                         // has dropout that can be turned off
  int settle = 0;
  std::chrono::milliseconds step_time{0};  // each step sleeps this long first (time budgets)
  int runners_made = 0;
  std::vector<bool> randomness_of_runners;
  std::vector<bool> deterministic_cudnn_of_runners;  // cuDNN's setting when each runner was made

  std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool) override {
    deterministic_cudnn_of_runners.push_back(at::globalContext().deterministicCuDNN());
    const bool randomness = random && randomness_on_;
    randomness_of_runners.push_back(randomness);
    auto runner = std::make_unique<FakeTrainingStep>(behaviour[variant.name()], runners_made++, randomness);
    if (step_time.count() == 0) return runner;
    return std::make_unique<SlowStep>(std::move(runner), step_time);
  }
  StepCost cost() const override { return {}; }
  int validation_steps() const override { return 3; }
  int settle_steps() const override { return settle; }
  bool has_randomness() const override { return random; }
  void set_randomness(bool on) override { randomness_on_ = on; }
  std::string randomness_description() const override { return "its 1 dropout module"; }
  double rtol(const Variant&) const override { return 1e-3; }
  double atol(const Variant&) const override { return 1e-4; }

 private:
  bool randomness_on_ = true;
};

ResultRecord validate_one(FakeTrainingCase& instance, const std::string& variant) {
  ResultRecord eager_record;
  ResultRecord record;
  std::vector<VariantRecord> variants{{Variant::named("eager"), &eager_record}, {Variant::named(variant), &record}};
  validate_against_eager(instance, variants);
  return record;
}

}  // namespace

TEST_CASE("validation: a variant equal to eager passes strictly, with no note", "[validation]") {
  FakeTrainingCase instance;
  const ResultRecord r = validate_one(instance, "graph");
  CHECK(r.status == RecordStatus::kOk);
  CHECK(r.validation_note.empty());
  CHECK(*r.max_abs_error == 0.0);
}

TEST_CASE("validation: rounding within eager's own spread passes, and the record says so", "[validation]") {
  FakeTrainingCase instance;
  instance.behaviour["eager"] = {Flaw::kRounding, 3};  // eager's runs differ at 6 elements of w
  instance.behaviour["graph"] = {Flaw::kRounding, 3};
  const ResultRecord r = validate_one(instance, "graph");
  CHECK(r.status == RecordStatus::kOk);
  CHECK_THAT(r.validation_note, Catch::Contains("within the spread of eager"));
  CHECK(*r.max_abs_error >= 2 * kLr);
}

TEST_CASE("validation: with a deterministic eager, the same rounding fails", "[validation]") {
  FakeTrainingCase instance;
  instance.behaviour["graph"] = {Flaw::kRounding, 3};
  const ResultRecord r = validate_one(instance, "graph");
  CHECK(r.status == RecordStatus::kFailed);
  CHECK_THAT(r.reason, Catch::Contains("does not match eager at step 1, value 1"));
  CHECK_THAT(r.reason, Catch::Contains("eager repeats itself within the tolerances"));
}

TEST_CASE("validation: far more differences than eager's own spread fail", "[validation]") {
  FakeTrainingCase instance;
  instance.behaviour["eager"] = {Flaw::kRounding, 3};
  instance.behaviour["graph"] = {Flaw::kTooMuchNoise, 100};
  const ResultRecord r = validate_one(instance, "graph");
  CHECK(r.status == RecordStatus::kFailed);
  CHECK_THAT(r.reason, Catch::Contains("eager differs from itself at"));
}

TEST_CASE("validation: where eager's first runs agree more than its later ones, more eager runs widen its spread",
          "[validation]") {
  // Runners 0 to 2 are eager's first run and its two spread runs (one flip a step each); runner 3
  // is the graph, runners 4 on eager's wider spread (20 flips a step, as the graph).
  FakeTrainingCase instance;
  instance.behaviour["eager"] = {Flaw::kRounding, 1, 20, 3};
  SECTION("a variant within the wider spread passes, saying so") {
    instance.behaviour["graph"] = {Flaw::kRounding, 20};
    const ResultRecord r = validate_one(instance, "graph");
    CHECK(r.status == RecordStatus::kOk);
    CHECK_THAT(r.validation_note, Catch::Contains("within the spread of eager"));
    CHECK(instance.runners_made == 4 + kEagerSpreadWiderRuns);
  }
  SECTION("a wrong capture still fails, against every eager run") {
    instance.behaviour["graph"] = {Flaw::kStaleInput};
    const ResultRecord r = validate_one(instance, "graph");
    CHECK(r.status == RecordStatus::kFailed);
    CHECK_THAT(r.reason, Catch::Contains("does not match eager"));
  }
  SECTION("far more differences than even the wider spread still fail") {
    instance.behaviour["graph"] = {Flaw::kTooMuchNoise, 200};
    const ResultRecord r = validate_one(instance, "graph");
    CHECK(r.status == RecordStatus::kFailed);
    CHECK_THAT(r.reason, Catch::Contains("eager differs from itself at"));
    CHECK_THAT(r.reason, Catch::Contains("(in " + std::to_string(3 + kEagerSpreadWiderRuns) + " runs)"));
  }
}

TEST_CASE("validation: a deterministic eager gets no more runs when a variant fails", "[validation]") {
  FakeTrainingCase instance;
  instance.behaviour["graph"] = {Flaw::kRounding, 3};
  const ResultRecord r = validate_one(instance, "graph");
  CHECK(r.status == RecordStatus::kFailed);
  CHECK(instance.runners_made == 4);
}

TEST_CASE("validation: a wrong capture fails even where eager has a spread and randomness can be turned off",
          "[validation]") {
  const auto flaw = GENERATE(Flaw::kStaleInput, Flaw::kSkippedUpdate, Flaw::kUnboundParam);
  FakeTrainingCase instance;
  instance.behaviour["eager"] = {Flaw::kRounding, 3};
  instance.behaviour["graph"] = {flaw, 0};
  instance.random = true;
  const ResultRecord r = validate_one(instance, "graph");
  CHECK(r.status == RecordStatus::kFailed);
  CHECK_THAT(r.reason, Catch::Contains("does not match eager"));
  CHECK_THAT(r.reason, Catch::Contains("with its 1 dropout module off"));
  CHECK(r.validation_note.empty());
}

TEST_CASE("validation: random numbers that differ from eager's validate with the randomness off, said so",
          "[validation]") {
  FakeTrainingCase instance;
  instance.random = true;
  instance.behaviour["graph"] = {Flaw::kOtherRandom, 0};
  const ResultRecord r = validate_one(instance, "graph");
  CHECK(r.status == RecordStatus::kOk);
  CHECK_THAT(r.validation_note, Catch::Contains("validated with its 1 dropout module off"));
  CHECK_THAT(r.validation_note, Catch::Contains("does not match eager at step 1"));
  // Eager three times and the variant with randomness on, then the same with it off;
  // and the case's randomness is on again afterwards.
  CHECK(instance.randomness_of_runners == std::vector<bool>{true, true, true, true, false, false, false, false});
  instance.make_runner(Variant::named("eager"), true);
  CHECK(instance.randomness_of_runners.back());
}

TEST_CASE("validation: a case without randomness to turn off fails the variant that draws other numbers",
          "[validation]") {
  FakeTrainingCase instance;
  instance.random = false;
  instance.behaviour["graph"] = {Flaw::kStaleInput, 0};
  const ResultRecord r = validate_one(instance, "graph");
  CHECK(r.status == RecordStatus::kFailed);
  CHECK(instance.runners_made == 4);  // eager, twice more for its spread, graph
}

TEST_CASE("validation: every runner runs cuDNN's deterministic algorithms, the settings restored after",
          "[validation]") {
  FakeTrainingCase instance;
  at::globalContext().setDeterministicCuDNN(false);
  at::globalContext().setBenchmarkCuDNN(true);
  CHECK(validate_one(instance, "graph").status == RecordStatus::kOk);
  CHECK(instance.deterministic_cudnn_of_runners == std::vector<bool>(4, true));  // eager three times, graph
  CHECK_FALSE(at::globalContext().deterministicCuDNN());
  CHECK(at::globalContext().benchmarkCuDNN());
  at::globalContext().setBenchmarkCuDNN(false);
}

TEST_CASE("validation: settling steps run on a runner of their own before eager's", "[validation]") {
  FakeTrainingCase instance;
  instance.settle = 5;
  const ResultRecord r = validate_one(instance, "graph");
  CHECK(r.status == RecordStatus::kOk);
  CHECK(instance.runners_made == 5);  // settling, eager three times, graph
}

TEST_CASE("validation: isolated rounding, a single element a few tolerances off, passes with a note", "[validation]") {
  // rtol 1e-3, atol 1e-4: at e = 0 the tolerance is 1e-4.
  const at::Tensor e = at::zeros({2000}, at::kDouble);
  auto off_by = [&](std::vector<std::pair<std::int64_t, double>> changes) {
    at::Tensor a = e.clone();
    for (const auto& [index, by] : changes) a[index] = by;
    return compare_observations({{e}}, {{a}}, 1e-3, 1e-4);
  };
  const ValidationResult one = off_by({{7, 1.1e-3}});  // 11 times its tolerance, 1 of 2000 elements
  CHECK(one.ok);
  CHECK_THAT(one.note, Catch::Contains("isolated rounding"));
  CHECK_THAT(one.note, Catch::Contains("at 1 of 2000 elements"));
  CHECK(off_by({{7, 1.1e-3}, {9, 1.1e-3}}).ok);  // 2000 elements allow 2
  CHECK_FALSE(off_by({{7, 1.1e-3}, {9, 1.1e-3}, {11, 1.1e-3}}).ok);  // 3 do not
  CHECK_FALSE(off_by({{7, 1e-2}}).ok);  // 100 times the tolerance: an update missed, not rounding
}

TEST_CASE("validation: a time budget leaves out eager's spread runs, then the variants it has no time for, saying so",
          "[validation]") {
  FakeTrainingCase instance;
  instance.step_time = std::chrono::milliseconds(10);  // eager's first run: 3 steps, 30 ms at least
  ResultRecord eager;
  ResultRecord graph;
  std::vector<VariantRecord> variants{{Variant::named("eager"), &eager}, {Variant::named("graph"), &graph}};
  SECTION("a budget eager's first run already spends") {
    validate_against_eager(instance, variants, {}, 0.001);
    CHECK(instance.runners_made == 1);  // eager's reference run only
    CHECK(eager.status == RecordStatus::kOk);
    REQUIRE(eager.warnings.size() == 1);
    CHECK_THAT(eager.warnings[0], Catch::StartsWith("validation shortened by the case's time limit: against one eager "
                                                    "run, eager's 2 runs for its own spread left out"));
    CHECK(graph.status == RecordStatus::kSkipped);
    CHECK_THAT(graph.reason, Catch::StartsWith("not validated within the case's time limit: validation may take 0.001 s"));
    CHECK_THAT(graph.reason, Catch::EndsWith("a longer --max-time gives it time"));
  }
  SECTION("a budget that holds everything cuts nothing") {
    validate_against_eager(instance, variants, {}, 1000.0);
    CHECK(instance.runners_made == 4);  // eager three times, graph once
    CHECK(eager.warnings.empty());
    CHECK(graph.status == RecordStatus::kOk);
    CHECK(graph.warnings.empty());
  }
}

TEST_CASE("validation: the ranks of a data-parallel case cut by the slowest rank's clock", "[validation]") {
  FakeTrainingCase instance;  // fast here: this rank alone would validate everything in a 1 s budget
  ResultRecord eager;
  ResultRecord graph;
  std::vector<VariantRecord> variants{{Variant::named("eager"), &eager}, {Variant::named("graph"), &graph}};
  // The other rank: eager ran on it too (the first question), then it has spent 5 s.
  int calls = 0;
  SamplingAgreement agreement;
  agreement.max_over_ranks = [&](const std::vector<std::int64_t>& local) {
    ++calls;
    return calls == 1 ? local : std::vector<std::int64_t>{std::max<std::int64_t>(local.at(0), 5'000'000)};
  };
  validate_against_eager(instance, variants, {}, 1.0, &agreement);
  CHECK(instance.runners_made == 1);  // eager's reference run only, as on the slow rank
  CHECK(eager.status == RecordStatus::kOk);
  CHECK(graph.status == RecordStatus::kSkipped);
  CHECK_THAT(graph.reason, Catch::StartsWith("not validated within the case's time limit: validation may take 1 s "
                                             "and had taken 5 s"));
  CHECK(calls == 3);  // eager failed anywhere?, the spread runs' cut, graph's turn
}
