// On the GPU: steps queued behind the holding kernel run back to back (engine/timing/back_to_back.h), and
// a step that waits for the device cannot be queued ahead, so its sample is refused.
#include "engine/engine_test_util.h"
#include "support/cuda_skip.h"

#include "graphbench/engine/timing/back_to_back.h"
#include "graphbench/engine/timing/step_timer.h"

#include <chrono>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

using namespace graphbench;
using namespace graphbench::test_util;

TEST_CASE("back to back on the GPU: a small graph's replays, queued ahead, take device time only",
          "[cuda][back-to-back]") {
  GRAPHBENCH_REQUIRE_CUDA();
  REQUIRE(back_to_back_available(true));
#ifdef GRAPHBENCH_WITH_CUDA
  at::Tensor x = cuda_randn({1024}, 7);
  at::Tensor y;
  at::cuda::CUDAGraph graph;
  {
    const auto stream = at::cuda::getStreamFromPool();
    c10::cuda::CUDAStreamGuard guard(stream);
    y = at::gelu(x);  // warm-up outside the capture
    synchronize_device(true);
    graph.capture_begin();
    y = at::gelu(x);
    graph.capture_end();
  }
  synchronize_device(true);
  const auto replay = [&graph] { graph.replay(); };

  // The host's pace: replays issued one after another, timed on the host, the device waited for.
  constexpr int kSteps = 200;
  synchronize_device(true);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kSteps; ++i) replay();
  synchronize_device(true);
  const double paced_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / kSteps;

  const BackToBackResult result = time_back_to_back(
      [&](std::int64_t steps, double hold_us) { return back_to_back_sample(replay, steps, hold_us); },
      plan_back_to_back(paced_us, paced_us));
  INFO("paced by the host: " << paced_us << " us a replay; " << result.why_not);
  REQUIRE(result.us_per_step.has_value());
  INFO("back to back: " << *result.us_per_step << " us a replay, " << result.steps << " per sample");
  CHECK(*result.us_per_step > 0.0);
  // Never slower than the host's pace (that includes the device's time), within timing noise.
  CHECK(*result.us_per_step < paced_us * 1.2);
  CHECK(tensors_close(y, at::gelu(x)));
#endif
}

TEST_CASE("back to back on the GPU: a step that waits for the device is refused", "[cuda][back-to-back]") {
  GRAPHBENCH_REQUIRE_CUDA();
  at::Tensor x = cuda_randn({1024}, 8);
  // .item() waits for everything queued before it: the holding kernel too.
  const auto waits = [&x] { (void)x.sum().item<float>(); };
  const BackToBackTry waited = back_to_back_sample(waits, 4, 200.0);
  CHECK_FALSE(waited.us_per_step.has_value());
  CHECK(waited.issue_us >= 200.0);  // the host waited out the hold
  // The whole figure gives up after the try of a single step that proves it, with the reason.
  int tries = 0;
  const BackToBackResult refused = time_back_to_back(
      [&](std::int64_t steps, double hold_us) {
        ++tries;
        return back_to_back_sample(waits, steps, hold_us);
      },
      BackToBackPlan{10, 200.0, 5.0});
  CHECK_FALSE(refused.us_per_step.has_value());
  CHECK(tries == 2);
  CHECK_THAT(refused.why_not, GB_CONTAINS("a single step cannot be queued ahead of the device"));
  // Without the wait, the same few steps are queued ahead in time. Run once first: a kernel's
  // first launch loads its module, and the loading waits for the device (CUDA's lazy loading).
  const auto queues = [&x] { x.mul_(1.0001); };
  queues();
  synchronize_device(true);
  const auto queued = back_to_back_sample(queues, 4, 20000.0);
  REQUIRE(queued.us_per_step.has_value());
  CHECK(*queued.us_per_step > 0.0);
  CHECK(queued.issue_us < 20000.0);
}
