// The back-to-back timing's plan and its retries (engine/timing/back_to_back.h), with a stand-in sample;
// the CUDA sample itself is tested on the GPU (tests/cuda/back_to_back_cuda_test.cpp).
#include "engine/engine_test_util.h"
#include "support/cuda_skip.h"

#include "graphbench/engine/timing/back_to_back.h"

#include <vector>

using namespace graphbench;
using namespace graphbench::test_util;

TEST_CASE("back to back: about 200 us of device time per sample, a hold of twice the host's issue time",
          "[timing][back-to-back]") {
  const BackToBackPlan small = plan_back_to_back(/*device=*/2.0, /*issue=*/3.0);
  CHECK(small.steps == 100);
  CHECK(small.hold_us == Approx(2.0 * 3.0 * 100 + 50.0));
  CHECK(small.issue_us_per_step == 3.0);
  // Long steps: at least ten; tiny ones: at most two hundred.
  CHECK(plan_back_to_back(1000.0, 40.0).steps == 10);
  CHECK(plan_back_to_back(1000.0, 40.0).hold_us == Approx(2.0 * 40.0 * 10 + 50.0));
  CHECK(plan_back_to_back(0.5, 0.4).steps == 200);
  CHECK(plan_back_to_back(0.0, 1.0).steps == 200);
}

TEST_CASE("back to back: the median of the samples, each taken with the plan", "[timing][back-to-back]") {
  std::vector<double> figures{3.0, 1.0, 2.0, 5.0, 4.0};
  std::vector<std::int64_t> steps_seen;
  std::size_t next = 0;
  const BackToBackResult result = time_back_to_back(
      [&](std::int64_t steps, double hold_us) {
        steps_seen.push_back(steps);
        CHECK(hold_us == Approx(650.0));
        return BackToBackTry{figures.at(next++), 300.0};
      },
      BackToBackPlan{100, 650.0, 3.0});
  REQUIRE(result.us_per_step.has_value());
  CHECK(*result.us_per_step == Approx(3.0));
  CHECK(result.steps == 100);
  CHECK(result.why_not.empty());
  CHECK(steps_seen == std::vector<std::int64_t>(kBackToBackSamples, 100));
}

TEST_CASE("back to back: the case's time limit ends the figure at the samples taken before it", "[timing][back-to-back]") {
  const std::vector<double> figures{3.0, 1.0, 2.0, 5.0, 4.0};
  std::size_t taken = 0;
  const auto sample = [&](std::int64_t, double) { return BackToBackTry{figures.at(taken++), 300.0}; };
  // Out of time after two samples: their median, the rest not taken.
  const BackToBackResult two =
      time_back_to_back(sample, BackToBackPlan{100, 650.0, 3.0}, kBackToBackSamples, [&] { return taken >= 2; });
  REQUIRE(two.us_per_step.has_value());
  CHECK(*two.us_per_step == Approx(2.0));
  CHECK(taken == 2);
  // Out of time before the first: no figure, and why.
  taken = 0;
  const BackToBackResult none =
      time_back_to_back(sample, BackToBackPlan{100, 650.0, 3.0}, kBackToBackSamples, [] { return true; });
  CHECK_FALSE(none.us_per_step.has_value());
  CHECK(taken == 0);
  CHECK(none.why_not == "the case's time limit ended before a sample was taken");
}

TEST_CASE("back to back: a sample the host could not queue in time is taken again, held longer, with fewer steps",
          "[timing][back-to-back]") {
  // The host needs 3 us a step: a sample holds only if the hold outlasts the queueing.
  std::vector<BackToBackPlan> tried;
  const BackToBackResult result = time_back_to_back(
      [&](std::int64_t steps, double hold_us) {
        tried.push_back({steps, hold_us, 0.0});
        const double issue_us = 3.0 * static_cast<double>(steps);
        if (hold_us < issue_us) return BackToBackTry{std::nullopt, issue_us};
        return BackToBackTry{1.5, issue_us};
      },
      BackToBackPlan{100, 100.0, 3.0});
  REQUIRE(result.us_per_step.has_value());
  CHECK(*result.us_per_step == Approx(1.5));
  // 100 steps in 100 us fails; 50 in 200 us holds, and stays the plan for the samples after it.
  REQUIRE(tried.size() == static_cast<std::size_t>(kBackToBackSamples + 1));
  CHECK(tried[0].steps == 100);
  CHECK(tried[0].hold_us == Approx(100.0));
  CHECK(tried[1].steps == 50);
  CHECK(tried[1].hold_us == Approx(200.0));
  CHECK(tried.back().steps == 50);
  CHECK(result.steps == 50);
}

TEST_CASE("back to back: a host too slow for every hold leaves the figure out after the tries, and says why",
          "[timing][back-to-back]") {
  int calls = 0;
  const BackToBackResult result = time_back_to_back(
      [&](std::int64_t steps, double hold_us) {
        ++calls;
        // Issued at its usual pace (no wait), yet always a little slower than the hold.
        return BackToBackTry{std::nullopt, std::min(hold_us * 1.01, 3.0 * static_cast<double>(steps) * 1.2)};
      },
      BackToBackPlan{8, 10.0, 3.0});
  CHECK_FALSE(result.us_per_step.has_value());
  CHECK(calls == kBackToBackTries);
  // 8 -> 4 -> 2 -> 1 -> 1 steps, the hold doubled four times.
  CHECK(result.steps == 1);
  CHECK_THAT(result.why_not, GB_CONTAINS("could not be queued ahead of the device"));
  CHECK_THAT(result.why_not, GB_CONTAINS("the last with 1 step behind a hold of 160 us"));
}

// The host of a step with more kernels than the launch queue holds waits until the device drains
// it, so the issue takes as long as the hold however long that is (a training step of
// mobilenet_v3_small, 1367 kernels: five doublings of the hold, up to 7 s, before).
TEST_CASE("back to back: a step the host must wait for is given up after one single-step try, with little held",
          "[timing][back-to-back]") {
  std::vector<BackToBackPlan> tried;
  double held_us = 0.0;
  const double device_us_per_step = 9000.0;
  const BackToBackResult result = time_back_to_back(
      [&](std::int64_t steps, double hold_us) {
        tried.push_back({steps, hold_us, 0.0});
        held_us += hold_us;
        return BackToBackTry{std::nullopt, hold_us + device_us_per_step * static_cast<double>(steps)};
      },
      plan_back_to_back(device_us_per_step, /*issue_us_per_step=*/device_us_per_step));
  CHECK_FALSE(result.us_per_step.has_value());
  REQUIRE(tried.size() == 2);
  CHECK(tried[0].steps == 10);
  CHECK(tried[1].steps == 1);
  CHECK(held_us < 0.25e6);  // the first try's hold and one step's: well under a second
  CHECK_THAT(result.why_not, GB_CONTAINS("a single step cannot be queued ahead of the device"));
  CHECK_THAT(result.why_not, GB_CONTAINS("the launch queue filled, or the step waits for the device"));
}

TEST_CASE("back to back: a host that waited once but queues a single step in time keeps the figure",
          "[timing][back-to-back]") {
  std::vector<std::int64_t> steps_seen;
  const BackToBackResult result = time_back_to_back(
      [&](std::int64_t steps, double hold_us) {
        steps_seen.push_back(steps);
        // Ten steps fill the launch queue; one fits.
        if (steps > 1) return BackToBackTry{std::nullopt, hold_us + 1000.0};
        return BackToBackTry{800.0, 50.0};
      },
      BackToBackPlan{10, 2000.0, 100.0});
  REQUIRE(result.us_per_step.has_value());
  CHECK(*result.us_per_step == Approx(800.0));
  CHECK(result.steps == 1);
  CHECK(steps_seen == std::vector<std::int64_t>{10, 1, 1, 1, 1, 1});
}

TEST_CASE("back to back: not on a CPU device", "[timing][back-to-back]") {
  CHECK_FALSE(back_to_back_available(false));
  if (!back_to_back_available(true)) {
    CHECK_THROWS_WITH(back_to_back_sample([] {}, 10, 100.0), GB_CONTAINS("needs a CUDA build"));
  }
}
