#include "graphbench/engine/timing/back_to_back.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/stats/statistics.h"
#include "graphbench/engine/timing/step_timer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
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
// A single step's try after the host waited: generous, so one slow issue is not taken for a step that
// cannot be queued.
constexpr double kSingleStepHoldUs = 1000.0;
}  // namespace

BackToBackPlan plan_back_to_back(double device_us_per_step, double issue_us_per_step) {
  BackToBackPlan plan;
  const double wanted = device_us_per_step > 0 ? std::ceil(kDeviceUsPerSample / device_us_per_step) : kMaxSteps;
  plan.steps = std::clamp(static_cast<std::int64_t>(wanted), kMinSteps, kMaxSteps);
  plan.issue_us_per_step = std::max(issue_us_per_step, 0.0);
  plan.hold_us = 2.0 * plan.issue_us_per_step * static_cast<double>(plan.steps) + kHoldMarginUs;
  return plan;
}

namespace {

// The host needed the whole hold and far longer than its pace: it waited for the device (a full
// launch queue, a sync), which no hold outlasts.
bool host_waited(const BackToBackTry& t, const BackToBackPlan& plan) {
  const double own_pace = plan.issue_us_per_step * static_cast<double>(plan.steps);
  return t.issue_us >= plan.hold_us && t.issue_us > kWaitedFactor * own_pace;
}

std::string steps_text(std::int64_t steps) { return fmt::format("{} {}", steps, steps == 1 ? "step" : "steps"); }

// The plan of the try after `failed`, which was taken with `plan`.
void plan_next_try(BackToBackPlan& plan, const BackToBackTry& failed) {
  if (host_waited(failed, plan)) {
    plan.steps = 1;
    plan.hold_us = 4.0 * plan.issue_us_per_step + kSingleStepHoldUs;
  } else {
    plan.hold_us *= 2.0;
    plan.steps = std::max<std::int64_t>(1, plan.steps / 2);
  }
}

}  // namespace

BackToBackResult time_back_to_back(const BackToBackSample& sample, BackToBackPlan plan, int samples,
                                   const std::function<bool()>& out_of_time) {
  BackToBackResult result;
  std::vector<double> per_step;
  for (int s = 0; s < samples; ++s) {
    BackToBackTry last;
    for (int attempt = 0; attempt < kBackToBackTries; ++attempt) {
      if (out_of_time && out_of_time()) {
        result.steps = plan.steps;
        if (!per_step.empty()) {
          result.us_per_step = stats::median_in_place(per_step);
        } else {
          result.why_not = "the case's time limit ended before a sample was taken";
        }
        return result;
      }
      if (attempt > 0) plan_next_try(plan, last);
      last = sample(plan.steps, plan.hold_us);
      if (last.us_per_step) break;
      if (plan.steps == 1 && last.issue_us >= plan.hold_us) {
        result.steps = 1;
        result.why_not = fmt::format(
            "a single step cannot be queued ahead of the device: issuing it took the host {:.0f} us, longer than the "
            "hold of {:.0f} us (it issues a step in {:.0f} us when it need not wait): the launch queue filled, or the "
            "step waits for the device",
            last.issue_us, plan.hold_us, plan.issue_us_per_step);
        return result;
      }
    }
    if (!last.us_per_step) {
      result.steps = plan.steps;
      result.why_not = fmt::format(
          "the steps could not be queued ahead of the device ({} tries, the last with {} behind a hold of {:.0f} us): "
          "the host issues them slower than the hold allows",
          kBackToBackTries, steps_text(plan.steps), plan.hold_us);
      return result;
    }
    per_step.push_back(*last.us_per_step);
  }
  result.steps = plan.steps;
  if (!per_step.empty()) result.us_per_step = stats::median_in_place(per_step);
  return result;
}

#ifdef GRAPHBENCH_WITH_CUDA

namespace {

// The SM clock the hold counts cycles of (a higher real clock only shortens it: the check catches that).
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

BackToBackTry back_to_back_sample(const std::function<void()>& step, std::int64_t steps, double hold_us) {
  if (steps <= 0) throw EngineError("back-to-back timing needs at least one step per sample");
  synchronize_device(true);
  const auto stream = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAEvent begin(cudaEventDefault);
  at::cuda::CUDAEvent end(cudaEventDefault);
  at::cuda::sleep(static_cast<std::int64_t>(hold_us * sm_clock_mhz()));
  const auto issue_start = std::chrono::steady_clock::now();
  begin.record(stream);
  for (std::int64_t i = 0; i < steps; ++i) step();
  end.record(stream);
  BackToBackTry t;
  t.issue_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - issue_start).count();
  // Still held: nothing of the steps has run yet, so they run back to back once it lets go.
  const bool held_throughout = !begin.query();
  end.synchronize();
  if (held_throughout) t.us_per_step = static_cast<double>(begin.elapsed_time(end)) * 1000.0 / static_cast<double>(steps);
  return t;
}

#else

bool back_to_back_available(bool) { return false; }

BackToBackTry back_to_back_sample(const std::function<void()>&, std::int64_t, double) {
  throw EngineError("back-to-back timing needs a CUDA build of graphbench");
}

#endif

}  // namespace graphbench
