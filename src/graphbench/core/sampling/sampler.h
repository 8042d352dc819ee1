// Adaptive, interleaved sampling of the variants of one case (docs/measuring.md: warm-up,
// calibration, rounds, stop rules):
// 1. Warm-up: `warmup_steps` untimed steps per variant within kWarmUpShare of `max_time_s` (cut,
//    and said in warmup_cut, where a variant reaches its share; never cut under an agreement).
// 2. Calibration: steps per sample so that one sample lasts `min_sample_time_ms`.
// 3. Rounds: one sample of every variant per round, in a rotated order, so drift hits all alike.
// 4. Stop when every variant has `min_samples` and `min_time_s` and its median's relative noise
//    (block bootstrap over rounds) is under `target_rel_noise`; or at `max_samples`; or at
//    `max_time_s`; or when a stop was requested (SIGINT, SIGTERM: "interrupted by ...").
#pragma once

#include "graphbench/core/suite/suite_spec.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// The device memory of one block of steps (CUDA caching allocator; bytes).
struct MemoryPeak {
  std::int64_t peak_allocated = 0;  // highest allocated during the block, everything alive counted
  std::int64_t peak_reserved = 0;   // highest reserved (allocated plus cached) during the block
  std::int64_t above_start = 0;     // peak_allocated minus what was allocated when the block began
};

// Per-step times of one block of back-to-back steps.
struct StepTime {
  double device_us = 0.0;  // per step
  double host_us = 0.0;    // per step: wall time until the device finished the block
  std::optional<double> issue_us;  // per step: until the last step returned, before waiting (CUDA only)
  std::optional<MemoryPeak> memory;  // absent without a CUDA device
};

// Where the sampler's times come from: StepTimer (CUDA events and a steady clock) in real runs,
// a scripted clock in tests.
class SampleTimer {
 public:
  virtual ~SampleTimer() = default;
  virtual void start() = 0;                          // a block of steps starts
  virtual StepTime stop(std::int64_t steps) = 0;     // per-step times of the `steps` since start()
  virtual double now_s() = 0;                        // seconds on a steady clock, for the timeout
  // True when each step is timed on its own (cold L2: flushed before each); the sampler then calls
  // before_step and after_step.
  virtual bool times_each_step() const { return false; }
  virtual void before_step() {}
  virtual void after_step() {}
};

struct TimedVariant {
  std::string name;
  std::function<void()> step;  // one timed unit (one inference call or one training step)
  std::int64_t steps_per_sample = 1;
  std::vector<double> device_us;  // per-step device time of each sample
  std::vector<double> host_us;    // per-step host time of each sample
  std::vector<double> issue_us;   // per-step host issue time of each sample (empty on the CPU)
  std::optional<MemoryPeak> memory;  // the highest of each field over the samples
  double measured_s = 0.0;
  std::string error;  // set when a step threw; the variant leaves the rotation
  // Called around each timed sample, off the clock (optional): the runner reads the GPU's clocks.
  std::function<void()> before_sample;
  std::function<void()> after_sample;
  int warmup_steps_run = 0;
  std::string warmup_cut;  // "warm-up cut to 3 of 20 steps by the time limit (...)"; empty when whole
};

// `steps` steps of `v`, with the timer's per-step hooks where it times each step on its own.
void run_block(TimedVariant& v, std::int64_t steps, SampleTimer& timer);

// A case's time limit holds for the whole case: validation may take up to kValidationShare of it,
// sampling the rest, and the warm-up of all variants up to kWarmUpShare of that.
inline constexpr double kValidationShare = 0.5;
inline constexpr double kWarmUpShare = 0.25;

// Where sampling stands, for progress lines: before each warm-up step and calibration, after each round.
struct SamplingProgress {
  enum class Phase { kWarmUp, kCalibration, kRounds };
  Phase phase = Phase::kRounds;
  std::string variant;        // warm-up and calibration: the variant at it
  int step = 0;               // warm-up: the step about to run (from 1), of `steps`
  int steps = 0;
  std::size_t rounds = 0;     // rounds done
  double elapsed_s = 0.0;     // since sampling began (warm-up included): the timeout's clock
  double min_left_s = 0.0;    // until every variant has min_samples and min_time_s (rounds only)
  double max_left_s = 0.0;    // until max_samples or the timeout, whichever comes first
};
using SamplingObserver = std::function<void(const std::vector<TimedVariant>&, const SamplingProgress&)>;

// The time left after `rounds` rounds that took `elapsed_rounds_s`: at least until every active
// variant has min_samples and min_time_s (at the pace so far), at most until max_samples or the timeout.
SamplingProgress rounds_time_left(const std::vector<TimedVariant>& variants, const SamplingSpec& sampling,
                                  std::size_t rounds, double elapsed_rounds_s, double elapsed_s);

// Ranks of a data-parallel case must take the same steps (their collectives pair up): with an
// agreement, steps per sample and "go on" take the largest wish of any rank, and a variant that
// failed on one rank leaves the rotation on all.
struct SamplingAgreement {
  // Elementwise maximum over the ranks (every rank calls it at the same points).
  std::function<std::vector<std::int64_t>(const std::vector<std::int64_t>&)> max_over_ranks;
};

// Samples every variant; returns why sampling stopped. `observer` (optional) hears where it stands;
// `agreement`: see SamplingAgreement (null for one process).
std::string sample_interleaved(std::vector<TimedVariant>& variants, const SamplingSpec& sampling, SampleTimer& timer,
                               const SamplingObserver& observer = {}, const SamplingAgreement* agreement = nullptr);

}  // namespace graphbench
