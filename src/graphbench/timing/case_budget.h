// What a case needs at the least under its time limit, from the time of one eager step, and the
// decision taken before the case starts: run it (its phases are then cut to fit the limit) or skip
// it, saying how long it would need and the --max-time that gives it that (docs/measuring.md,
// "The time limit of a case"). Torch-free: tested on given step times.
#pragma once

#include "graphbench/suite/suite_spec.h"

#include <string>

namespace graphbench {

// Rounds a case samples at the least under a limit: fewer give no median worth the name.
inline constexpr int kMinimumRounds = 3;

// The least a case runs under its limit: the eager step that measures it (the probe), one
// validation run of every variant (`validation_steps` steps each), one warm-up step, one
// calibration block and kMinimumRounds samples of every variant. A sample lasts one step or
// min_sample_time_ms, whichever is longer.
double minimum_case_seconds(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

// The --max-time to offer for a case that needs `seconds`: that time rounded up (whole seconds
// under a minute, then tens of seconds), so that the offer is never below the need.
double offered_max_time(double seconds);

// Why a case whose minimum does not fit its limit `sampling.max_time_s` is skipped, or "" when it
// fits: "one eager step took 9.5 s, so this case needs about 2 min 23 s at the least (...), more
// than its limit of 3 s: --max-time 150 gives it that time".
std::string too_long_reason(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

}  // namespace graphbench
