// The sampler on a scripted clock: every step advances a virtual clock by its variant's cost, so
// stop rules, rotation and timeouts are checked exactly and instantly.
#include "support/catch.h"

#include "graphbench/core/base/interrupt.h"
#include "graphbench/core/stats/random.h"
#include "graphbench/core/sampling/sampler.h"

#include <csignal>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using graphbench::SampleTimer;
using graphbench::SamplingSpec;
using graphbench::StepTime;
using graphbench::TimedVariant;

// Virtual time in microseconds; device and host time are the same.
class ScriptedTimer final : public SampleTimer {
 public:
  void start() override { started_us_ = now_us; }
  StepTime stop(std::int64_t steps) override {
    StepTime t;
    t.device_us = (now_us - started_us_) / static_cast<double>(steps);
    t.host_us = t.device_us;
    return t;
  }
  double now_s() override { return now_us * 1e-6; }
  double now_us = 0.0;

 private:
  double started_us_ = 0.0;
};

struct Script {
  ScriptedTimer timer;
  std::vector<std::string> log;  // which variant stepped, in order

  // A variant whose i-th step costs cost(i) microseconds.
  TimedVariant variant(const std::string& name, std::function<double(int)> cost) {
    TimedVariant v;
    v.name = name;
    v.step = [this, name, cost, i = 0]() mutable {
      log.push_back(name);
      timer.now_us += cost(i++);
    };
    return v;
  }
};

SamplingSpec quick() {
  SamplingSpec s;
  s.warmup_steps = 0;
  s.min_samples = 10;
  s.max_samples = 1000;
  s.min_time_s = 0.00005;
  s.max_time_s = 10.0;
  s.target_rel_noise = 0.01;
  s.min_sample_time_ms = 0.01;  // 10 us: one step of 10 us per sample
  return s;
}

}  // namespace

TEST_CASE("sampler: steady variants stop at the noise target with min_samples each") {
  Script script;
  std::vector<TimedVariant> variants = {script.variant("eager", [](int) { return 30.0; }),
                                        script.variant("graph", [](int) { return 10.0; })};
  const std::string reason = graphbench::sample_interleaved(variants, quick(), script.timer);
  CHECK(reason == "noise target reached");
  for (const auto& v : variants) {
    CHECK(v.device_us.size() == 10);
    CHECK(v.error.empty());
  }
  CHECK(variants[0].device_us.front() == Approx(30.0));
  CHECK(variants[1].device_us.front() == Approx(10.0));
  CHECK(variants[0].steps_per_sample == 1);
}

TEST_CASE("sampler: calibration sizes a sample to min_sample_time_ms") {
  Script script;
  SamplingSpec s = quick();
  s.min_sample_time_ms = 1.0;  // 1000 us: 100 steps of 10 us
  std::vector<TimedVariant> variants = {script.variant("graph", [](int) { return 10.0; })};
  graphbench::sample_interleaved(variants, s, script.timer);
  CHECK(variants[0].steps_per_sample == 100);
  CHECK(variants[0].device_us.front() == Approx(10.0));  // per step, not per sample
  CHECK(variants[0].measured_s == Approx(10 * 100 * 10.0 * 1e-6));
}

TEST_CASE("sampler: each round starts one variant later (rotation), after warm-up and calibration") {
  Script script;
  SamplingSpec s = quick();
  s.warmup_steps = 2;
  s.min_samples = 3;
  std::vector<TimedVariant> variants = {script.variant("a", [](int) { return 10.0; }),
                                        script.variant("b", [](int) { return 10.0; }),
                                        script.variant("c", [](int) { return 10.0; })};
  graphbench::sample_interleaved(variants, s, script.timer);
  const std::vector<std::string> expected = {
      "a", "a", "b", "b", "c", "c",  // warm-up: two steps each
      "a", "b", "c",                 // calibration: one 10 us step reaches the 10 us target
      "a", "b", "c",                 // round 0
      "b", "c", "a",                 // round 1
      "c", "a", "b"};                // round 2
  REQUIRE(script.log.size() >= expected.size());
  CHECK(std::vector<std::string>(script.log.begin(), script.log.begin() + static_cast<long>(expected.size())) == expected);
}

TEST_CASE("sampler: a noisy variant runs into max_samples, then into the timeout") {
  // Costs drawn uniformly from [10, 20) us, independently: the median's interval never gets narrow.
  // (A strictly alternating 10, 20, 10, ... is no noise to the block bootstrap of the stop rule:
  // every block of an even length holds as many of each, and so does the whole run.)
  auto noisy = [](int i) {
    graphbench::stats::SplitMix64 draw(static_cast<std::uint64_t>(i) + 1);
    return 10.0 + 10.0 * static_cast<double>(draw.next() >> 11) / 9007199254740992.0;
  };
  SECTION("max samples") {
    Script script;
    SamplingSpec s = quick();
    s.max_samples = 12;
    std::vector<TimedVariant> variants = {script.variant("noisy", noisy)};
    CHECK(graphbench::sample_interleaved(variants, s, script.timer) == "max samples (12) reached before the noise target");
    CHECK(variants[0].device_us.size() == 12);
  }
  SECTION("timeout") {
    Script script;
    SamplingSpec s = quick();
    s.max_time_s = 0.001;  // 1000 us of virtual time
    std::vector<TimedVariant> variants = {script.variant("noisy", noisy)};
    const std::string reason = graphbench::sample_interleaved(variants, s, script.timer);
    CHECK_THAT(reason, Catch::Contains("timeout after 0.0 s before the noise target"));
    CHECK(variants[0].device_us.size() >= 10);
    CHECK(script.timer.now_us <= 1000.0 + 20.0);  // stops within one round of the timeout
  }
  SECTION("timeout before min_samples") {
    Script script;
    SamplingSpec s = quick();
    s.min_samples = 1000;
    s.max_time_s = 0.0002;
    std::vector<TimedVariant> variants = {script.variant("noisy", noisy)};
    CHECK_THAT(graphbench::sample_interleaved(variants, s, script.timer),
               Catch::Contains("with only") && Catch::Contains("(min_samples 1000)"));
  }
}

TEST_CASE("sampler: a variant that throws leaves the rotation, the others go on") {
  Script script;
  std::vector<TimedVariant> variants = {script.variant("ok", [](int) { return 10.0; }),
                                        script.variant("broken", [](int i) -> double {
                                          if (i >= 3) throw std::runtime_error("boom");
                                          return 10.0;
                                        })};
  CHECK(graphbench::sample_interleaved(variants, quick(), script.timer) == "noise target reached");
  CHECK(variants[1].error == "boom");
  CHECK(variants[0].device_us.size() >= 10);

  Script all_fail;
  std::vector<TimedVariant> broken = {all_fail.variant("x", [](int) -> double { throw std::runtime_error("no"); })};
  CHECK(graphbench::sample_interleaved(broken, quick(), all_fail.timer) == "every variant failed");
}

TEST_CASE("sampler: a stop request ends sampling at the end of the current sample") {
  Script script;
  SamplingSpec s = quick();
  s.min_samples = 1000;
  s.max_samples = 1000;
  int steps = 0;
  std::vector<TimedVariant> variants = {script.variant("a", [&](int) {
                                          // SIGINT arrives during the 5th step; with one step per
                                          // sample, that sample still finishes.
                                          if (++steps == 5) graphbench::request_stop(SIGINT);
                                          return 10.0;
                                        }),
                                        script.variant("b", [](int) { return 10.0; })};
  const std::string reason = graphbench::sample_interleaved(variants, s, script.timer);
  graphbench::clear_stop_request();
  CHECK(reason == "interrupted by SIGINT");
  // Calibration took step 1 of a; samples: a at steps 2..5; b took its calibration step and
  // samples in between (rotation), and nothing ran after the sample in which the signal came.
  CHECK(variants[0].device_us.size() == 4);
  CHECK(script.log.back() == "a");
  CHECK(variants[1].device_us.size() <= 4);
}

TEST_CASE("sampler: a stop requested before sampling runs nothing") {
  Script script;
  graphbench::request_stop(SIGTERM);
  std::vector<TimedVariant> variants = {script.variant("a", [](int) { return 10.0; })};
  const std::string reason = graphbench::sample_interleaved(variants, quick(), script.timer);
  graphbench::clear_stop_request();
  CHECK(reason == "interrupted by SIGTERM");
  CHECK(script.log.empty());
}

TEST_CASE("sampler: the observer hears warm-up, calibration and every round, with the time left") {
  Script script;
  SamplingSpec s = quick();
  s.warmup_steps = 2;
  s.min_samples = 6;  // the fewest with which a median's noise can be told
  s.max_samples = 9;
  s.max_time_s = 1.0;
  s.min_time_s = 1e-6;
  std::vector<TimedVariant> variants = {script.variant("eager", [](int) { return 30.0; }),
                                        script.variant("graph", [](int) { return 10.0; })};
  std::vector<graphbench::SamplingProgress> heard;
  graphbench::sample_interleaved(variants, s, script.timer,
                                 [&](const std::vector<TimedVariant>&, const graphbench::SamplingProgress& p) {
                                   heard.push_back(p);
                                 });
  using Phase = graphbench::SamplingProgress::Phase;
  // Each warm-up step (2 per variant), each calibration, then 6 rounds (the noise target met).
  REQUIRE(heard.size() == 4 + 2 + 6);
  CHECK(heard[0].phase == Phase::kWarmUp);
  CHECK(heard[0].variant == "eager");
  CHECK(heard[0].step == 1);
  CHECK(heard[1].step == 2);
  CHECK(heard[1].steps == 2);
  CHECK(heard[2].variant == "graph");
  CHECK(heard[0].max_left_s == Approx(1.0));
  CHECK(heard[1].max_left_s == Approx(1.0 - 30e-6));  // the first warm-up step took 30 us
  CHECK(heard[4].phase == Phase::kCalibration);
  // Round 1 took 40 us; 5 more to min_samples, 8 more to max_samples.
  CHECK(heard[6].phase == Phase::kRounds);
  CHECK(heard[6].rounds == 1);
  CHECK(heard[6].min_left_s == Approx(5 * 40e-6));
  CHECK(heard[6].max_left_s == Approx(8 * 40e-6));
  CHECK(heard[11].rounds == 6);
  CHECK(heard[11].min_left_s == 0.0);
}

TEST_CASE("sampler: time left is capped by the timeout and counts min_time_s") {
  SamplingSpec s = quick();
  s.min_samples = 2;
  s.max_samples = 100;
  s.min_time_s = 1.0;
  s.max_time_s = 10.0;
  TimedVariant v;
  v.name = "slow";
  v.device_us = {1.25e5, 1.25e5};  // two samples of 0.125 s each
  v.measured_s = 0.25;
  // Two rounds took 0.25 s: 6 more samples to reach 1 s of measured time; 98 to max_samples,
  // but only 9.5 s are left before the timeout.
  const auto p = graphbench::rounds_time_left({v}, s, 2, 0.25, 0.5);
  CHECK(p.min_left_s == Approx(0.75));
  CHECK(p.max_left_s == Approx(9.5));
}

namespace {

// A scripted timer that also reports an issue time and the memory of each block, and asks for
// the per-step hooks (as StepTimer does with a cold L2 cache).
class HookedTimer final : public SampleTimer {
 public:
  void start() override {
    started_us_ = now_us;
    in_block_ = true;
  }
  StepTime stop(std::int64_t steps) override {
    in_block_ = false;
    const double per_step = (now_us - started_us_) / static_cast<double>(steps);
    StepTime t;
    t.device_us = per_step;
    t.host_us = per_step;
    t.issue_us = per_step * 0.5;
    graphbench::MemoryPeak m;
    m.peak_allocated = 1000 + blocks_;
    m.peak_reserved = 4000 - blocks_;
    m.above_start = blocks_ % 3;
    t.memory = m;
    ++blocks_;
    return t;
  }
  double now_s() override { return now_us * 1e-6; }
  bool times_each_step() const override { return true; }
  void before_step() override {
    if (in_block_ && !in_step_) ++hooked_steps;
    in_step_ = true;
  }
  void after_step() override { in_step_ = false; }

  double now_us = 0.0;
  int hooked_steps = 0;

 private:
  double started_us_ = 0.0;
  bool in_block_ = false;
  bool in_step_ = false;
  int blocks_ = 0;
};

}  // namespace

TEST_CASE("sampler: issue times and the highest memory of the samples are kept per variant") {
  HookedTimer timer;
  int steps = 0;
  TimedVariant v;
  v.name = "graph";
  v.step = [&] {
    ++steps;
    timer.now_us += 10.0;
  };
  std::vector<TimedVariant> variants = {v};
  SamplingSpec s = quick();
  s.warmup_steps = 3;
  const std::string reason = graphbench::sample_interleaved(variants, s, timer);
  CHECK(reason == "noise target reached");
  const TimedVariant& t = variants[0];
  REQUIRE(t.issue_us.size() == t.device_us.size());
  CHECK(t.issue_us.front() == Approx(5.0));
  REQUIRE(t.memory.has_value());
  // Calibration blocks are not samples: the kept peaks are those of the samples' blocks.
  const int calibration_blocks = 1;
  const int last_block = calibration_blocks + static_cast<int>(t.device_us.size()) - 1;
  CHECK(t.memory->peak_allocated == 1000 + last_block);
  CHECK(t.memory->peak_reserved == 4000 - calibration_blocks);
  CHECK(t.memory->above_start == 2);
  // Every step of a timed block (calibration and samples) went through the hooks; warm-up did not.
  CHECK(timer.hooked_steps == steps - 3);
}

TEST_CASE("sampler: without a device the issue times and memory stay absent") {
  Script script;
  std::vector<TimedVariant> variants = {script.variant("eager", [](int) { return 30.0; })};
  graphbench::sample_interleaved(variants, quick(), script.timer);
  CHECK(variants[0].issue_us.empty());
  CHECK_FALSE(variants[0].memory.has_value());
}

TEST_CASE("sampler: the warm-up stops at its share of the timeout, at least one step each, and says so") {
  Script script;
  SamplingSpec s = quick();
  s.warmup_steps = 20;
  s.max_time_s = 0.3;  // the warm-up's share: a quarter, 37.5 ms for each of the two variants
  // A step of 10 ms: 4 steps reach the share (40 ms), so each variant warms up 4 of its 20 steps.
  std::vector<TimedVariant> variants = {script.variant("eager", [](int) { return 10000.0; }),
                                        script.variant("graph", [](int) { return 10000.0; })};
  graphbench::sample_interleaved(variants, s, script.timer);
  for (const auto& v : variants) {
    CHECK(v.warmup_steps_run == 4);
    CHECK(v.warmup_cut == "warm-up cut to 4 of 20 steps by the time limit (0.0375 s of the 0.3 s left for sampling)");
  }
  const std::vector<std::string> expected = {"eager", "eager", "eager", "eager", "graph", "graph", "graph", "graph"};
  CHECK(std::vector<std::string>(script.log.begin(), script.log.begin() + 8) == expected);

  // A step longer than the share: still one step; a warm-up that fits is whole.
  Script slow;
  std::vector<TimedVariant> one = {slow.variant("eager", [](int) { return 1e6; })};
  graphbench::sample_interleaved(one, s, slow.timer);
  CHECK(one[0].warmup_steps_run == 1);
  Script fast;
  std::vector<TimedVariant> whole = {fast.variant("eager", [](int) { return 10.0; })};
  graphbench::sample_interleaved(whole, s, fast.timer);
  CHECK(whole[0].warmup_steps_run == 20);
  CHECK(whole[0].warmup_cut.empty());
}

TEST_CASE("sampler: the ranks of a data-parallel case cut the warm-up together, when the slowest rank's share is spent") {
  Script script;
  SamplingSpec s = quick();
  s.warmup_steps = 20;
  s.max_time_s = 0.3;
  // This rank's steps are short (its own share would allow all 20); another rank reports its share
  // spent from the second check on (before step 3): both stop there.
  int warm_up_checks = 0;
  graphbench::SamplingAgreement agreement;
  agreement.max_over_ranks = [&](const std::vector<std::int64_t>& local) {
    if (local.size() != 1) return local;  // rounds and calibration: the other rank agrees
    ++warm_up_checks;
    return std::vector<std::int64_t>{warm_up_checks >= 2 ? 1 : local[0]};
  };
  std::vector<TimedVariant> variants = {script.variant("eager", [](int) { return 10.0; })};
  graphbench::sample_interleaved(variants, s, script.timer, {}, &agreement);
  CHECK(variants[0].warmup_steps_run == 2);
  CHECK(variants[0].warmup_cut.rfind("warm-up cut to 2 of 20 steps by the time limit", 0) == 0);
  CHECK(warm_up_checks == 2);
}

TEST_CASE("sampler: a round that would end past the limit is not started, so a case that fits stays inside it") {
  Script script;
  SamplingSpec s = quick();
  s.warmup_steps = 10;
  s.max_time_s = 3.0;
  // 0.4 s a step, two variants: one warm-up step each (each variant's share, 0.375 s, is spent by
  // then), one calibration step each, then rounds of 0.8 s: 2.4 s after the first round, and a
  // second would end at 3.2 s, past the limit.
  std::vector<TimedVariant> variants = {script.variant("eager", [](int) { return 4e5; }),
                                        script.variant("graph", [](int) { return 4e5; })};
  const std::string reason = graphbench::sample_interleaved(variants, s, script.timer);
  CHECK(script.timer.now_s() <= s.max_time_s);
  CHECK(script.timer.now_s() == Approx(2.4));
  CHECK_THAT(reason, Catch::Contains("timeout after 2.4 s with only 1 samples (min_samples 10): another round (0.8 s) "
                                     "would end past the limit of 3 s"));
}
