// Device time of steps run back to back, the host's launches off the clock. A timed sample of the
// sampler issues its steps one after another while the device runs them: when the host takes
// longer to issue a step than the device takes to run it (a small graph), the sample measures the
// host's pace. Here the steps of a sample are queued behind a kernel that holds the stream (as
// nvbench's blocking kernel does), and the events around them are reached only once every step is
// queued, so the device runs them without waiting: the figure is what the step costs the GPU.
//
// A sample counts only if the hold was still on when the last step had been issued (its begin
// event not yet reached); otherwise (the host was slower than the hold, or the launch queue filled
// and made the host wait) it is taken again with a longer hold and fewer steps. CUDA only, hot L2
// only. See docs/measuring.md (back to back).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace graphbench {

struct BackToBackPlan {
  std::int64_t steps = 0;          // steps per sample
  double hold_us = 0.0;            // how long the holding kernel keeps the stream
  double issue_us_per_step = 0.0;  // the host's time to issue a step in the timed samples
};

// Enough steps for about 200 us of device time (10 to 200 of them), and a hold of twice the time
// the host took to issue them in the timed samples, plus 50 us.
BackToBackPlan plan_back_to_back(double device_us_per_step, double issue_us_per_step);

// One try of a sample: the device time per step (nullopt when the hold ended before the last step
// was issued) and how long the host took to issue the steps.
struct BackToBackTry {
  std::optional<double> us_per_step;
  double issue_us = 0.0;
};

// One sample: `steps` steps queued behind a hold of `hold_us`.
using BackToBackSample = std::function<BackToBackTry(std::int64_t steps, double hold_us)>;

struct BackToBackResult {
  std::optional<double> us_per_step;  // median of the samples
  std::int64_t steps = 0;             // steps per sample, as finally taken
  std::string why_not;                // why us_per_step is absent
};

// Samples taken per figure, and the tries of one sample before the figure is given up.
inline constexpr int kBackToBackSamples = 5;
inline constexpr int kBackToBackTries = 5;
// A failed try whose steps took the host more than this many times their time in the timed
// samples (and at least the hold): the host waited for the device, not merely issued slowly.
inline constexpr double kWaitedFactor = 1.5;

// Takes `samples` samples with `sample`, following `plan`. A try that fails because the host was
// slow to issue is taken again with twice the hold and half the steps (at least one); a try in
// which the host waited for the device (the launch queue filled, or a step synchronises) is taken
// again with a single step, since a longer hold only makes the host wait longer; a single step
// that still cannot be queued ends the figure at once, with the reason. At most kBackToBackTries
// tries a sample; the plan so changed stays for the samples after it.
// `out_of_time` (may be empty), asked before each try: true ends the figure there, as the median of
// the samples taken so far (none: no figure, saying so).
BackToBackResult time_back_to_back(const BackToBackSample& sample, BackToBackPlan plan,
                                   int samples = kBackToBackSamples, const std::function<bool()>& out_of_time = {});

// Whether this build can hold a stream (a CUDA build, on a CUDA device).
bool back_to_back_available(bool cuda);

// The CUDA sample: `step` run `steps` times on the current stream behind a hold of `hold_us`.
// Throws where back_to_back_available is false.
BackToBackTry back_to_back_sample(const std::function<void()>& step, std::int64_t steps, double hold_us);

}  // namespace graphbench
