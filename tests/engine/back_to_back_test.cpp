// The back-to-back timing's plan and its retries (timing/back_to_back.h), with a stand-in sample;
// the CUDA sample itself is tested on the GPU (tests/cuda/back_to_back_cuda_test.cpp).
#include "engine/engine_test_util.h"
#include "support/cuda_skip.h"

#include "graphbench/timing/back_to_back.h"

#include <vector>

using namespace graphbench;
using namespace graphbench::test_util;

TEST_CASE("back to back: about 200 us of device time per sample, a hold of twice the host's issue time",
          "[timing][back-to-back]") {
  const BackToBackPlan small = plan_back_to_back(/*device=*/2.0, /*issue=*/3.0);
  CHECK(small.steps == 100);
  CHECK(small.hold_us == Approx(2.0 * 3.0 * 100 + 50.0));
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
      [&](std::int64_t steps, double hold_us) -> std::optional<double> {
        steps_seen.push_back(steps);
        CHECK(hold_us == Approx(650.0));
        return figures.at(next++);
      },
      BackToBackPlan{100, 650.0});
  REQUIRE(result.us_per_step.has_value());
  CHECK(*result.us_per_step == Approx(3.0));
  CHECK(result.steps == 100);
  CHECK(result.why_not.empty());
  CHECK(steps_seen == std::vector<std::int64_t>(kBackToBackSamples, 100));
}

TEST_CASE("back to back: a sample the host could not queue in time is taken again, held longer, with fewer steps",
          "[timing][back-to-back]") {
  // The host needs 3 us a step: a sample holds only if the hold outlasts the queueing.
  std::vector<BackToBackPlan> tried;
  const BackToBackResult result = time_back_to_back(
      [&](std::int64_t steps, double hold_us) -> std::optional<double> {
        tried.push_back({steps, hold_us});
        if (hold_us < 3.0 * static_cast<double>(steps)) return std::nullopt;
        return 1.5;
      },
      BackToBackPlan{100, 100.0});
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

TEST_CASE("back to back: a step that never runs ahead leaves the figure out, and says why", "[timing][back-to-back]") {
  int calls = 0;
  const BackToBackResult result = time_back_to_back(
      [&](std::int64_t, double) -> std::optional<double> {
        ++calls;
        return std::nullopt;
      },
      BackToBackPlan{8, 100.0});
  CHECK_FALSE(result.us_per_step.has_value());
  CHECK(calls == kBackToBackTries);
  // The last try: 8 -> 4 -> 2 -> 1 -> 1 steps, the hold doubled four times.
  CHECK(result.steps == 1);
  CHECK_THAT(result.why_not, GB_CONTAINS("could not be queued ahead of the device"));
  CHECK_THAT(result.why_not, GB_CONTAINS("the last with 1 step behind a hold of 1600 us"));
}

TEST_CASE("back to back: not on a CPU device", "[timing][back-to-back]") {
  CHECK_FALSE(back_to_back_available(false));
  if (!back_to_back_available(true)) {
    CHECK_THROWS_WITH(back_to_back_sample([] {}, 10, 100.0), GB_CONTAINS("needs a CUDA build"));
  }
}
