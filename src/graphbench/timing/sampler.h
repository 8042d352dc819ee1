// Adaptive, interleaved sampling of the variants of one case.
//
// 1. Warm-up: `warmup_steps` untimed steps per variant.
// 2. Calibration: steps per sample chosen so that one sample lasts `min_sample_time_ms`.
// 3. Rounds: each round takes one sample of every variant, in an order rotated each round, so
//    that drift (clocks, temperature, neighbours) hits all variants alike.
// 4. Stop when every variant has at least `min_samples` samples and `min_time_s` of measured time
//    and the relative noise of its median is under `target_rel_noise`; or at `max_samples`; or at
//    the timeout `max_time_s` (then the result carries the reason).
// See docs/measuring.md (warm-up, calibration, rounds, stop rules).
#pragma once

#include "graphbench/suite/suite_spec.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace graphbench {

// Per-step times of one block of back-to-back steps.
struct StepTime {
  double device_us = 0.0;  // per step
  double host_us = 0.0;    // per step
};

// Where the sampler's times come from: StepTimer (CUDA events and a steady clock) in real runs,
// a scripted clock in tests.
class SampleTimer {
 public:
  virtual ~SampleTimer() = default;
  // Marks the start of a block of steps.
  virtual void start() = 0;
  // Per-step times of the `steps` steps since start().
  virtual StepTime stop(std::int64_t steps) = 0;
  // Seconds on a steady clock, for the timeout.
  virtual double now_s() = 0;
};

struct TimedVariant {
  std::string name;
  std::function<void()> step;  // one timed unit (one inference call or one training step)
  std::int64_t steps_per_sample = 1;
  std::vector<double> device_us;  // per-step device time of each sample
  std::vector<double> host_us;    // per-step host time of each sample
  double measured_s = 0.0;
  std::string error;  // set when a step threw; the variant leaves the rotation
};

// Ranks of a data-parallel case sample together and must take the same steps (each step holds
// collectives that pair up across ranks). With an agreement, what each rank decides is combined
// before it takes effect: steps per sample and "go on" take the largest wish of any rank, and a
// variant that failed on one rank leaves the rotation on all.
struct SamplingAgreement {
  // Elementwise maximum over the ranks (every rank calls it at the same points).
  std::function<std::vector<std::int64_t>(const std::vector<std::int64_t>&)> max_over_ranks;
};

// Samples every variant; returns why sampling stopped. `agreement`: see SamplingAgreement (null
// for one process).
std::string sample_interleaved(std::vector<TimedVariant>& variants, const SamplingSpec& sampling, SampleTimer& timer,
                               const SamplingAgreement* agreement = nullptr);

}  // namespace graphbench
