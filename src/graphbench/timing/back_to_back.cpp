#include "graphbench/timing/back_to_back.h"

#include "graphbench/core/errors.h"
#include "graphbench/stats/statistics.h"
#include "graphbench/timing/step_timer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/Sleep.h>
#include <cuda_runtime_api.h>
#endif

namespace graphbench {

namespace {
constexpr double kDeviceUsPerSample = 200.0;
constexpr std::int64_t kMinSteps = 10;
constexpr std::int64_t kMaxSteps = 200;
constexpr double kHoldMarginUs = 50.0;
}  // namespace

BackToBackPlan plan_back_to_back(double device_us_per_step, double issue_us_per_step) {
  BackToBackPlan plan;
  const double wanted = device_us_per_step > 0 ? std::ceil(kDeviceUsPerSample / device_us_per_step) : kMaxSteps;
  plan.steps = std::clamp(static_cast<std::int64_t>(wanted), kMinSteps, kMaxSteps);
  plan.hold_us = 2.0 * std::max(issue_us_per_step, 0.0) * static_cast<double>(plan.steps) + kHoldMarginUs;
  return plan;
}

BackToBackResult time_back_to_back(const BackToBackSample& sample, BackToBackPlan plan, int samples) {
  BackToBackResult result;
  std::vector<double> per_step;
  for (int s = 0; s < samples; ++s) {
    std::optional<double> us;
    for (int attempt = 0; attempt < kBackToBackTries && !us; ++attempt) {
      if (attempt > 0) {
        plan.hold_us *= 2.0;
        plan.steps = std::max<std::int64_t>(1, plan.steps / 2);
      }
      us = sample(plan.steps, plan.hold_us);
    }
    if (!us) {
      result.steps = plan.steps;
      result.why_not = fmt::format(
          "the steps could not be queued ahead of the device ({} tries, the last with {} {} behind a hold of {:.0f} "
          "us): a step waits for the device, or the launch queue filled",
          kBackToBackTries, plan.steps, plan.steps == 1 ? "step" : "steps", plan.hold_us);
      return result;
    }
    per_step.push_back(*us);
  }
  result.steps = plan.steps;
  if (!per_step.empty()) result.us_per_step = stats::median_in_place(per_step);
  return result;
}

#ifdef GRAPHBENCH_WITH_CUDA

namespace {

// The SM clock the holding kernel counts cycles of; a higher real clock only shortens the hold,
// which the sample's check catches.
double sm_clock_mhz() {
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, at::cuda::current_device()) != cudaSuccess || khz <= 0) {
    (void)cudaGetLastError();
    return 2000.0;
  }
  return khz / 1000.0;
}

}  // namespace

bool back_to_back_available(bool cuda) { return cuda; }

std::optional<double> back_to_back_sample(const std::function<void()>& step, std::int64_t steps, double hold_us) {
  if (steps <= 0) throw EngineError("back-to-back timing needs at least one step per sample");
  synchronize_device(true);
  const auto stream = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAEvent begin(cudaEventDefault);
  at::cuda::CUDAEvent end(cudaEventDefault);
  at::cuda::sleep(static_cast<std::int64_t>(hold_us * sm_clock_mhz()));
  begin.record(stream);
  for (std::int64_t i = 0; i < steps; ++i) step();
  end.record(stream);
  // Still held: nothing of the steps has run yet, so they run back to back once it lets go.
  const bool held_throughout = !begin.query();
  end.synchronize();
  if (!held_throughout) return std::nullopt;
  return static_cast<double>(begin.elapsed_time(end)) * 1000.0 / static_cast<double>(steps);
}

#else

bool back_to_back_available(bool) { return false; }

std::optional<double> back_to_back_sample(const std::function<void()>&, std::int64_t, double) {
  throw EngineError("back-to-back timing needs a CUDA build of graphbench");
}

#endif

}  // namespace graphbench
