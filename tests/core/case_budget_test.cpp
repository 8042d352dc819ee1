// The decision before a case starts, on given step times: skipped with what it needs and the
// --max-time that gives it, or run (core/sampling/case_budget.h).
#include "support/catch.h"

#include "graphbench/core/stats/random.h"
#include "graphbench/core/sampling/case_budget.h"
#include "graphbench/core/sampling/sampler.h"

#include <string>
#include <tuple>

using graphbench::SamplingSpec;

TEST_CASE("minimum_case_seconds: the probe, one validation run, one warm-up step, a calibration block and three samples per variant") {
  SamplingSpec s;  // min_sample_time_ms 1
  // 9.5 s a step (linear-dropout-large on the 2-core CPU), 3 variants, 1 validation step:
  // 9.5 (probe) + 3 x 9.5 (validation) + 3 x (9.5 + 9.5 + 3 x 9.5) (warm-up, calibration, samples).
  CHECK(graphbench::minimum_case_seconds(9.5, 3, 1, s) == Approx(9.5 + 28.5 + 142.5));
  // Five validation steps each.
  CHECK(graphbench::minimum_case_seconds(2.0, 2, 5, s) == Approx(2.0 + 20.0 + 2 * 10.0));
  // A fast step: a sample lasts min_sample_time_ms, not one step.
  CHECK(graphbench::minimum_case_seconds(1e-5, 2, 1, s) == Approx(1e-5 + 2e-5 + 2 * (1e-5 + 4e-3)));
  // Fewer where asked: --min-samples 1 --warmup 0: one calibration block and one sample each.
  s.min_samples = 1;
  s.warmup_steps = 0;
  CHECK(graphbench::minimum_case_seconds(2.0, 2, 1, s) == Approx(2.0 + 4.0 + 2 * (2.0 + 2.0)));
}

TEST_CASE("offered_max_time: never below the need, round figures") {
  CHECK(graphbench::offered_max_time(0.0) == 1.0);
  CHECK(graphbench::offered_max_time(0.2) == 1.0);
  CHECK(graphbench::offered_max_time(2.3) == 3.0);
  CHECK(graphbench::offered_max_time(60.0) == 60.0);
  CHECK(graphbench::offered_max_time(143.0) == 150.0);
  CHECK(graphbench::offered_max_time(180.5) == 190.0);
}

TEST_CASE("too_long_reason: a case whose minimum exceeds the limit is skipped with its estimate and the flag") {
  SamplingSpec s;
  s.max_time_s = 3.0;  // the CPU's default limit
  const std::string why = graphbench::too_long_reason(9.5, 3, 1, s);
  CHECK_THAT(why, Catch::Contains("skipped before it started: one eager step took 9.5 s on this device"));
  CHECK_THAT(why, Catch::Contains("needs about 3 min 01 s at the least (one validation run and 3 sample(s) of each of its 3 variant(s))"));
  // 180.5 s, and a tenth of the limit kept for after sampling: 200.6 s, with room 300.8 s, offered
  // as 310.
  CHECK_THAT(why, Catch::Contains("more than its time limit of 3.0 s allows: --max-time 310 gives it that time"));
  // That flag is enough, even with steps half as long again; 200 s is not enough at all.
  s.max_time_s = 310.0;
  CHECK(graphbench::too_long_reason(9.5 * graphbench::kOfferedRoom, 3, 1, s).empty());
  s.max_time_s = 210.0;
  CHECK(graphbench::too_long_reason(9.5, 3, 1, s).empty());
  s.max_time_s = 200.0;
  CHECK_FALSE(graphbench::too_long_reason(9.5, 3, 1, s).empty());
}

TEST_CASE("too_long_reason: a need inside the limit but not inside what sampling may use says why it is skipped") {
  SamplingSpec s;
  s.max_time_s = 3.0;
  s.min_samples = 1;
  s.warmup_steps = 0;
  // The probe's step, one validation step and a round of one sample after a first one: 4 x 0.7 = 2.8 s,
  // inside 3.0 s but past the 2.7 s sampling may end by (a tenth of the limit is kept for after it).
  const double need_s = graphbench::minimum_case_seconds(0.7, 1, 1, s);
  REQUIRE(need_s <= 3.0);
  REQUIRE(need_s > 2.7);
  const std::string why = graphbench::too_long_reason(0.7, 1, 1, s);
  CHECK_THAT(why, Catch::Contains("; 10% of its limit is kept for after the samples), more than its time limit of "
                                  "3.0 s allows"));
  // A need past the limit itself needs no such word.
  CHECK_THAT(graphbench::too_long_reason(9.5, 3, 1, s), !Catch::Contains("is kept for after the samples"));
}

TEST_CASE("too_long_reason: a case that fits runs") {
  SamplingSpec s;
  s.max_time_s = 3.0;
  CHECK(graphbench::too_long_reason(0.01, 3, 1, s).empty());
  // 0.1 + 0.3 + 3 x 0.5 = 1.9 s fits the 2.7 s sampling may end by; 0.2 s a step (3.8 s) does not.
  CHECK(graphbench::too_long_reason(0.1, 3, 1, s).empty());
  CHECK_FALSE(graphbench::too_long_reason(0.2, 3, 1, s).empty());
}

TEST_CASE("expected_case_seconds: a case that fits is expected inside its limit") {
  SamplingSpec s;
  s.max_time_s = 3.0;
  s.warmup_steps = 20;
  // 1.3 ms a step (linear-dropout-small on the 2-core CPU), 3 variants: the probe, validation,
  // warm-up, calibration and 0.5 s of samples per variant: about 1.6 s at the least, the limit at most.
  const auto r = graphbench::expected_case_seconds(1.3e-3, 3, 1, s);
  CHECK(r.most_s == Approx(3.0));
  CHECK(r.least_s > 1.5);
  CHECK(r.least_s < 3.0);
  // Long steps: the least is the limit (sampling stops there), never more.
  const auto slow = graphbench::expected_case_seconds(0.1, 3, 1, s);
  CHECK(slow.least_s <= 3.0);
  CHECK(slow.most_s == Approx(3.0));
  CHECK_THAT(graphbench::expected_time_note(1.3e-3, 3, 1, s),
             Catch::Contains("one eager step took 1 ms on this device, so this case takes about ") &&
                 Catch::Contains("to 3.0 s (its time limit: 3.0 s)"));
}

TEST_CASE("plan_training: whole epochs inside the limit, or skipped before it starts with the --max-time it needs") {
  // The MNIST tutorial on the 2-core CPU: 8.6 ms a step, 937 steps an epoch, 10,000 test images.
  const double step_s = 8.6e-3;
  const double test_s = graphbench::test_pass_seconds(step_s, 64, 10000);
  CHECK(test_s == Approx(step_s * graphbench::kTestImageShare * 10000.0 / 64.0));
  const double epoch_s = 937 * step_s + test_s;  // about 9.1 s

  // The CPU's default limit of 3 s: not even one epoch; the offer gives it one (room included), and all.
  auto plan = graphbench::plan_training(step_s, 937, test_s, 10, 3.0, 1);
  CHECK(plan.epochs == 0);
  CHECK(plan.epoch_s == Approx(epoch_s));
  CHECK_THAT(plan.skip_reason, Catch::Contains("skipped before it started: one training step took 9 ms on this device, "
                                               "so one epoch (937 steps and its test pass) takes about 9.1 s, more "
                                               "than its time limit of 3.0 s allows: --max-time 16 gives it one epoch, "
                                               "--max-time 160 all 10"));
  // The offered --max-time gives it what it offers, even with steps half as long again.
  CHECK(graphbench::plan_training(step_s * graphbench::kOfferedRoom, 937, test_s * graphbench::kOfferedRoom, 10, 16.0, 1).epochs == 1);
  CHECK(graphbench::plan_training(step_s * graphbench::kOfferedRoom, 937, test_s * graphbench::kOfferedRoom, 10, 160.0, 1).epochs == 10);

  // 30 s: two epochs fit nine tenths of it; the note says so, and what gives it all ten.
  plan = graphbench::plan_training(step_s, 937, test_s, 10, 30.0, 1);
  CHECK(plan.epochs == 2);
  CHECK(plan.skip_reason.empty());
  CHECK_THAT(plan.note, Catch::Contains("so 2 of its 10 epochs fit its time limit of 30 s: this run takes about 18 s "
                                        "(9.1 s each; --max-time 160 gives it all 10)"));
  // Enough for all: the estimate of the whole run.
  plan = graphbench::plan_training(step_s, 937, test_s, 10, 160.0, 1);
  CHECK(plan.epochs == 10);
  CHECK_THAT(plan.note, Catch::Contains("this run takes about 1 min 31 s (10 epochs of about 9.1 s; its time limit: 2 min 40 s)"));
  // Two variants share the case's limit: each has its half, and the offer is for both.
  plan = graphbench::plan_training(step_s, 937, test_s, 10, 15.0, 2);
  CHECK(plan.epochs == 1);
  CHECK_THAT(plan.note, Catch::Contains("1 of its 10 epochs fit its time limit of 15 s for each of its 2 variants"));
  CHECK_THAT(plan.note, Catch::Contains("--max-time 310 gives it all 10"));
}

TEST_CASE("a training run under a limit stays inside it, and its estimate is within 1.5x of what it takes") {
  // The loop of a trainer, on given times: the probe plans the epochs; after each epoch, another
  // starts only where it ends inside the limit at the pace of the longest so far.
  const auto run = [](double probe_step_s, double real_step_s, int epochs, double limit_s) {
    const double test_s = graphbench::test_pass_seconds(probe_step_s, 64, 10000);
    const auto plan = graphbench::plan_training(probe_step_s, 937, test_s, epochs, limit_s, 1);
    const double real_epoch_s = 937 * real_step_s + graphbench::test_pass_seconds(real_step_s, 64, 10000) * 0.9;
    double elapsed_s = 0.0;
    int done = 0;
    for (int epoch = 1; epoch <= plan.epochs; ++epoch) {
      elapsed_s += real_epoch_s;
      done = epoch;
      if (epoch < plan.epochs && !graphbench::another_epoch_fits(elapsed_s, real_epoch_s, limit_s)) break;
    }
    return std::make_tuple(plan, done, elapsed_s);
  };
  for (const double limit_s : {12.0, 30.0, 60.0, 160.0}) {
    for (const double slower : {0.8, 1.0, 1.3}) {
      const auto [plan, done, elapsed_s] = run(8.6e-3, 8.6e-3 * slower, 10, limit_s);
      INFO("limit " << limit_s << " s, steps " << slower << "x the probe's");
      CHECK(plan.epochs >= 1);
      CHECK(elapsed_s <= limit_s);
      const double estimate_s = plan.epochs * plan.epoch_s;
      CHECK(elapsed_s <= 1.5 * estimate_s);
      CHECK(elapsed_s >= estimate_s / 1.5);
    }
  }
  // Steps twice as slow as the probe said: the run stops early rather than past its limit.
  const auto [plan, done, elapsed_s] = run(8.6e-3, 2 * 8.6e-3, 10, 60.0);
  CHECK(plan.epochs == 5);
  CHECK(done == 3);
  CHECK(elapsed_s <= 60.0);
  CHECK_THAT(graphbench::epochs_cut_warning(3, 10, 18.0, 60.0, 1),
             Catch::Contains("trained 3 of 10 epochs: another would have ended past the time limit of 1 min 00 s "
                             "(--max-time 300 gives it all 10)"));
}

TEST_CASE("data-parallel cases: the minimum counts every rank's phases, and the phases share what is left") {
  graphbench::SamplingSpec s;  // min_sample_time_ms 1
  // 2 ranks, 3 variants, 5 validation steps, 1 s a step: the probe, 15 s of validation, 2 s of one
  // process on the global batch, and three timed phases of 3 x (1 + 1 + 3) s.
  const double all_reduce_s = 2.0 * 5.0 * 1e-3;
  const auto two = graphbench::data_parallel_minimum(1.0, 3, 5, 2, s);
  CHECK(two.total_s() == Approx(1 + 15 + 2 + 3 * 15 + all_reduce_s));
  CHECK(two.after_validation_s() == Approx(2 + 3 * 15 + all_reduce_s));
  // One rank: no phase on rank 0 alone.
  CHECK(graphbench::data_parallel_minimum(1.0, 3, 5, 1, s).total_s() == Approx(1 + 15 + 1 + 2 * 15 + all_reduce_s));
  s.max_time_s = 1.0;  // --max-time 1 (docs/distributed.md): a large case is skipped, with the flag
  const std::string why = graphbench::data_parallel_too_long_reason(60.0, 3, 5, 2, s);
  CHECK_THAT(why, Catch::Contains("skipped before it started: one eager step took 1 min 00 s on this device"));
  CHECK_THAT(why, Catch::Contains("on each of 2 ranks one validation run of each of its 3 variant(s)"));
  CHECK_THAT(why, Catch::Contains("more than its time limit of 1.0 s allows: --max-time"));
  s.max_time_s = 3.0;
  CHECK(graphbench::data_parallel_too_long_reason(1e-3, 3, 5, 2, s).empty());

  // Each phase its minimum first, then what is over at 2 : 1 : 0.5 : 1.
  const auto shares = graphbench::data_parallel_phase_shares(two.after_validation_s() - two.one_process_s + 9.0, two);
  CHECK(shares.timed + shares.no_all_reduce + shares.all_reduce_alone + shares.one_rank ==
        Approx(two.after_validation_s() - two.one_process_s + 9.0));
  CHECK(shares.timed == Approx(15.0 + 4.0));
  CHECK(shares.no_all_reduce == Approx(15.0 + 2.0));
  CHECK(shares.one_rank == Approx(15.0 + 2.0));
  CHECK(shares.all_reduce_alone == Approx(all_reduce_s + 1.0));
  // Short of the minimums: each phase its part of what is left.
  const auto short_shares = graphbench::data_parallel_phase_shares(22.5, two);
  CHECK(short_shares.timed == Approx(15.0 * 22.5 / (45.0 + all_reduce_s)));
  const auto one = graphbench::data_parallel_phase_shares(40.0, graphbench::data_parallel_minimum(1.0, 3, 5, 1, s));
  CHECK(one.one_rank == 0.0);
  CHECK(one.timed + one.no_all_reduce + one.all_reduce_alone == Approx(40.0));
  CHECK(graphbench::data_parallel_phase_shares(-1.0, two).timed == 0.0);
}

TEST_CASE("data-parallel cases: the set-up of every later instance is counted, and a phase that overran leaves the "
          "later ones less") {
  graphbench::SamplingSpec s;
  s.max_time_s = 3.0;
  // ddp-mnist-step on the 2-core CPU: a step of 43 ms fits 3 s without counting the set-ups, not
  // with the three later instances set up in 0.6 s each, as the case's own took.
  const double step_s = 0.043;
  CHECK(graphbench::data_parallel_too_long_reason(step_s, 3, 1, 2, s).empty());
  const auto with_setups = graphbench::data_parallel_minimum(step_s, 3, 1, 2, s, 0.6);
  CHECK(with_setups.instances == 3);
  CHECK(with_setups.total_s() == Approx(graphbench::data_parallel_minimum(step_s, 3, 1, 2, s).total_s() + 1.8));
  const std::string why = graphbench::data_parallel_too_long_reason(step_s, 3, 1, 2, s, 0.6);
  CHECK_THAT(why, Catch::Contains("skipped before it started: one eager step took 43 ms"));
  CHECK_THAT(why, Catch::Contains("the case set up 3 more times (600 ms each)"));
  CHECK(graphbench::data_parallel_minimum(step_s, 3, 1, 1, s, 0.6).instances == 2);

  // Phases of 2, 1 and 1 s planned: the first overran, 1 s is left for the other two, 0.5 s each;
  // ended early, 3 s left, 1.5 s each. Nothing left: none.
  CHECK(graphbench::rolling_phase_seconds(1.0, 2.0, 1.0) == Approx(0.5));
  CHECK(graphbench::rolling_phase_seconds(1.0, 2.0, 3.0) == Approx(1.5));
  CHECK(graphbench::rolling_phase_seconds(1.0, 2.0, -0.2) == 0.0);
  CHECK(graphbench::rolling_phase_seconds(1.0, 0.0, 1.0) == 0.0);
}

TEST_CASE("validation_budget_s: half the limit, and never what the rest of the minimum needs") {
  // 10 s: half is 5 s; after a probe of 1 s and 5 s the rest needs at the least, 3 s are left.
  CHECK(graphbench::validation_budget_s(10.0, 1.0, 5.0) == Approx(3.0));
  CHECK(graphbench::validation_budget_s(10.0, 0.1, 1.0) == Approx(5.0));
  CHECK(graphbench::validation_budget_s(10.0, 1.0, 9.0) == 0.0);
}

namespace {

// Virtual time in microseconds (device and host time the same), as in sampler_test.cpp.
class ScriptedTimer final : public graphbench::SampleTimer {
 public:
  void start() override { started_us_ = now_us; }
  graphbench::StepTime stop(std::int64_t steps) override {
    graphbench::StepTime t;
    t.device_us = (now_us - started_us_) / static_cast<double>(steps);
    t.host_us = t.device_us;
    return t;
  }
  double now_s() override { return now_us * 1e-6; }
  double now_us = 0.0;

 private:
  double started_us_ = 0.0;
};

// A benchmark case under a limit for the whole of it, on a scripted clock, as run_benchmark_case
// runs it: the probe (two steps where the first is shorter than the limit), validation (eager
// three times and every other variant once, eager's spread runs left out where they would not fit
// half the limit), then the sampler until nine tenths of the limit. `noise`: each step's time
// drawn from [step, step * (1 + noise)). Returns the seconds the case took.
double simulate_case(double step_s, int variants, int validation_steps, const SamplingSpec& sampling, double noise) {
  ScriptedTimer timer;
  const double probe_s = step_s < sampling.max_time_s ? 2 * step_s : step_s;
  timer.now_us += probe_s * 1e6;
  const double whole_s = (variants + 2 /* kEagerSpreadRuns, engine/runner/validation.h */) * validation_steps * step_s;
  const double validation_s =
      whole_s <= graphbench::kValidationShare * sampling.max_time_s ? whole_s : variants * validation_steps * step_s;
  timer.now_us += validation_s * 1e6;
  std::vector<graphbench::TimedVariant> timed;
  for (int i = 0; i < variants; ++i) {
    graphbench::TimedVariant v;
    v.name = "v" + std::to_string(i);
    v.step = [&timer, step_s, noise, draw = graphbench::stats::SplitMix64(static_cast<std::uint64_t>(i) + 7)]() mutable {
      const double u = static_cast<double>(draw.below(1000)) / 1000.0;
      timer.now_us += step_s * (1.0 + noise * u) * 1e6;
    };
    timed.push_back(std::move(v));
  }
  SamplingSpec left = sampling;
  left.max_time_s = (1.0 - graphbench::kAfterSamplingShare) * sampling.max_time_s - timer.now_s();
  graphbench::sample_interleaved(timed, left, timer);
  return timer.now_s();
}

}  // namespace

TEST_CASE("a benchmark case that fits stays inside its limit, and takes what its estimate says within 1.5x") {
  for (const double limit_s : {3.0, 10.0}) {
    for (const double step_s : {2e-5, 1e-3, 1e-2, 5e-2}) {
      for (const int validation_steps : {1, 5}) {
        for (const double noise : {0.0, 0.5}) {
          SamplingSpec s;
          s.max_time_s = limit_s;
          s.warmup_steps = 20;
          if (!graphbench::too_long_reason(step_s, 3, validation_steps, s).empty()) continue;
          const double took_s = simulate_case(step_s, 3, validation_steps, s, noise);
          const auto expected = graphbench::expected_case_seconds(step_s, 3, validation_steps, s);
          INFO("limit " << limit_s << " s, step " << step_s << " s, " << validation_steps
                        << " validation step(s), noise " << noise << ": took " << took_s << " s, expected "
                        << expected.least_s << " s to " << expected.most_s << " s");
          CHECK(took_s <= limit_s);
          CHECK(took_s >= expected.least_s / 1.5);
          CHECK(took_s <= expected.most_s * 1.5);
        }
      }
    }
  }
}

TEST_CASE("plan_after_sampling: room for the kernel profile, the steps back to back and the summary, from the step and the rates") {
  SamplingSpec s;  // min_sample_time_ms 1, max_samples 2000
  const graphbench::AfterSamplingRates rates{0.03, 170e-6};
  // gelu-small on one H200 (13 variants, a 20 us step, 2.9 s left of 3 s): 13 x (10 x 20 us + 30 ms)
  // of profile, 5% of the limit back to back, and the samples of what is left at 1 ms a sample.
  const auto gpu = graphbench::plan_after_sampling(3.0, 2.9, 2e-5, 13, 10, true, s, rates);
  CHECK(gpu.profile_s == Approx(13 * (10 * 2e-5 + 0.03)));
  CHECK(gpu.back_to_back_s == Approx(0.15));
  const double sampling_s = (2.9 - gpu.profile_s - 0.15) / (1.0 + 0.17);
  CHECK(gpu.summary_s == Approx(sampling_s / 1e-3 * 170e-6));
  CHECK(gpu.reserve_s == Approx(gpu.profile_s + gpu.back_to_back_s + gpu.summary_s));
  // What sampling then has and what comes after it end together at the limit.
  CHECK(sampling_s + gpu.reserve_s == Approx(2.9));
  // On the CPU (no profile, no steps back to back) a slow step takes few samples: the floor holds.
  const auto cpu = graphbench::plan_after_sampling(3.0, 2.5, 0.1, 3, 0, false, s, rates);
  CHECK(cpu.profile_s == 0.0);
  CHECK(cpu.back_to_back_s == 0.0);
  CHECK(cpu.summary_s == Approx(2.5 / (1.0 + 170e-6 / 0.1) / 0.1 * 170e-6));
  CHECK(cpu.reserve_s == Approx(graphbench::kAfterSamplingShare * 3.0));
  // Never more samples than max_samples of every variant; nothing left: nothing to summarize.
  s.max_samples = 10;
  CHECK(graphbench::plan_after_sampling(100.0, 99.0, 1e-6, 2, 0, false, s, rates).summary_s == Approx(20 * 170e-6));
  CHECK(graphbench::plan_after_sampling(3.0, 0.1, 2e-5, 13, 10, true, s, rates).summary_s == 0.0);
}

TEST_CASE("roofline_too_long_reason: on the CPU a case whose step cannot fit even at kRooflineRoom times the peak is skipped without a step") {
  SamplingSpec s;
  s.max_time_s = 3.0;
  // linear-dropout-large on the 2-core CPU: 40 GFLOP a step at 5.4 GFLOP/s (a step took 9 s).
  CHECK(graphbench::roofline_step_seconds(40e9, 1e9, 5.4e9, 26e9) == Approx(40.0 / 5.4));
  const std::string why = graphbench::roofline_too_long_reason(40e9, 1e9, 5.4e9, 26e9, 3, 1, 0, s);
  // 926 ms a step at the least, 19 of them (the probe, 3 validation steps, 3 x (1 + 1 + 3)); the
  // offer: 19 steps of 7.4 s, with a tenth kept and half as much again: 235 s, so 240.
  CHECK_THAT(why, Catch::Contains("skipped before it started: its step does 40 GFLOP, at least 926 ms on this device "
                                  "(at 8 times 5.4 GFLOP/s, the most it did in a matrix product), so this case needs at "
                                  "least 18 s (one validation run and 3 sample(s) of each of its 3 variant(s)), more "
                                  "than its time limit of 3.0 s allows: --max-time 240 lets its probe time one step"));
  // Memory-bound: the copy's bandwidth bounds it.
  CHECK_THAT(graphbench::roofline_too_long_reason(1e6, 400e9, 5.4e9, 26e9, 3, 1, 0, s),
             Catch::Contains("its step does 400 GB, at least 1.9 s on this device (at 8 times 26 GB/s, the most it did in a copy)"));
  // Data-parallel: the minimum of every rank's phases.
  CHECK_THAT(graphbench::roofline_too_long_reason(40e9, 1e9, 5.4e9, 26e9, 3, 5, 2, s),
             Catch::Contains("(on each of 2 ranks one validation run"));
  // A step whose lower bound fits: the probe decides (the MNIST step at batch 1024, 2.95 GFLOP,
  // whose convolutions ran at 21 GFLOP/s); no cost known: the same.
  CHECK(graphbench::roofline_too_long_reason(2.95e9, 1e7, 5.6e9, 26e9, 1, 5, 0, s).empty());
  CHECK(graphbench::roofline_too_long_reason(0.0, 0.0, 5.4e9, 26e9, 3, 1, 0, s).empty());
  // Samples of 20 s do not fit 3 s whatever the step: the probe says so, with a real step's time.
  SamplingSpec long_samples = s;
  long_samples.min_sample_time_ms = 20000;
  CHECK(graphbench::roofline_too_long_reason(40e9, 1e9, 5.4e9, 26e9, 3, 1, 0, long_samples).empty());
  CHECK_FALSE(graphbench::too_long_reason(1e-5, 3, 1, long_samples).empty());
  // A case the roofline lets through fits at the speed it allowed for.
  for (const double flops : {1e8, 1e9, 4e9}) {
    const double least_step_s = graphbench::roofline_step_seconds(flops, 0.0, 5.4e9, 0.0) / graphbench::kRooflineRoom;
    if (graphbench::roofline_too_long_reason(flops, 0.0, 5.4e9, 0.0, 3, 1, 0, s).empty()) {
      CHECK(graphbench::too_long_reason(least_step_s, 3, 1, s).empty());
    } else {
      CHECK_FALSE(graphbench::too_long_reason(least_step_s, 3, 1, s).empty());
    }
  }
}
