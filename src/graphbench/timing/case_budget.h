// What a case needs at the least under its time limit, from the time of one eager step, and the
// decision taken before the case starts: run it (its phases are then cut to fit the limit) or skip
// it, saying how long it would need and the --max-time that gives it that (docs/measuring.md,
// "The time limit of a case"). Torch-free: tested on given step times.
#pragma once

#include "graphbench/suite/suite_spec.h"

#include <string>

namespace graphbench {

// The share of a case's limit kept for what comes after sampling (the summary's bootstraps; on a
// GPU the kernel profile and the back-to-back steps): sampling stops by the rest.
inline constexpr double kAfterSamplingShare = 0.1;

// Rounds a case samples at the least under a limit: fewer give no median worth the name.
inline constexpr int kMinimumRounds = 3;

// The least a case runs under its limit: the eager step that measures it (the probe), one
// validation run of every variant (`validation_steps` steps each), one warm-up step, one
// calibration block and kMinimumRounds samples of every variant (fewer where min_samples is lower;
// no warm-up step where warmup_steps is 0). A sample lasts one step or min_sample_time_ms,
// whichever is longer.
double minimum_case_seconds(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

// Room the offered --max-time leaves over the need: a step's time moves by as much between runs on
// a busy machine (gelu-large on the 2-core CPU: 103 ms to 154 ms in runs minutes apart).
inline constexpr double kOfferedRoom = 1.5;

// The --max-time to offer for a case that needs `seconds`: that time rounded up (whole seconds
// under a minute, then tens of seconds), so that the offer is never below the need.
double offered_max_time(double seconds);

// Why a case whose minimum does not fit its limit `sampling.max_time_s` (less kAfterSamplingShare)
// is skipped, or "" when it fits: "one eager step took 9.5 s, so this case needs about 3 min 01 s
// at the least (...), more than its time limit of 3.0 s allows: --max-time 310 gives it that time" (kOfferedRoom
// over the limit it needs).
std::string too_long_reason(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

// What a case that fits will take, from its probe: at least its validation, warm-up and minimum
// samples (report/progress.h, estimate_case), at most its limit; the probe's step counted.
struct CaseTimeRange {
  double least_s = 0.0;
  double most_s = 0.0;
};
CaseTimeRange expected_case_seconds(double eager_step_s, int variants, int validation_steps,
                                    const SamplingSpec& sampling);

// "one eager step took 1.3 ms on this device, so this case takes about 1.6 s to 3.0 s (its time
// limit: 3.0 s)", for the log before a case that fits runs.
std::string expected_time_note(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

}  // namespace graphbench
