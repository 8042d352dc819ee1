// The decision before a case starts, on given step times: skipped with what it needs and the
// --max-time that gives it, or run (timing/case_budget.h).
#include "support/catch.h"

#include "graphbench/timing/case_budget.h"

#include <string>

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
