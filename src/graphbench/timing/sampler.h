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

#include "graphbench/runner/workload.h"
#include "graphbench/suite/suite_spec.h"
#include "graphbench/timing/step_timer.h"

#include <string>
#include <vector>

namespace graphbench {

struct TimedVariant {
  std::string name;
  VariantRunner* runner = nullptr;
  std::int64_t steps_per_sample = 1;
  std::vector<double> device_us;  // per-step device time of each sample
  std::vector<double> host_us;    // per-step host time of each sample
  double measured_s = 0.0;
  std::string error;  // set when a step threw; the variant leaves the rotation
};

// Samples every variant; returns why sampling stopped.
std::string sample_interleaved(std::vector<TimedVariant>& variants, const SamplingSpec& sampling, StepTimer& timer);

}  // namespace graphbench
