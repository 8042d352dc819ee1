// Device time of steps run back to back, the host's launches off the clock (docs/measuring.md, back
// to back): where the host issues a step slower than the device runs it, a timed sample measures the
// host's pace. Here a sample's steps queue behind a kernel that holds the stream (as nvbench's
// blocking kernel), so the device runs them without waiting. A sample counts only if the hold
// outlasted the issuing; otherwise it is taken again with a longer hold and fewer steps. CUDA, hot L2.
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

// Steps for about 200 us of device time (10 to 200), a hold of twice their issue time plus 50 us.
BackToBackPlan plan_back_to_back(double device_us_per_step, double issue_us_per_step);

// One try: the device time per step (nullopt where the hold ended first) and the issue time.
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
// A failed try issued this many times slower than in the timed samples (and at least the hold):
// the host waited for the device.
inline constexpr double kWaitedFactor = 1.5;

// `samples` samples following `plan`. A try the host issued too slowly is taken again with twice the
// hold and half the steps; one where the host waited for the device (a full launch queue, a sync),
// with one step; a single step that still cannot queue ends the figure. At most kBackToBackTries a
// sample; the changed plan stays. `out_of_time`, asked before each try, ends with the samples so far.
BackToBackResult time_back_to_back(const BackToBackSample& sample, BackToBackPlan plan,
                                   int samples = kBackToBackSamples, const std::function<bool()>& out_of_time = {});

// Whether this build can hold a stream (a CUDA build, on a CUDA device).
bool back_to_back_available(bool cuda);

// `step` run `steps` times on the current stream behind a hold of `hold_us`; throws where unavailable.
BackToBackTry back_to_back_sample(const std::function<void()>& step, std::int64_t steps, double hold_us);

}  // namespace graphbench
