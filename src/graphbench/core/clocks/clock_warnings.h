// Warnings about the clocks a case ran at (docs/measuring.md, "Clocks, temperature, power"):
// a variant throttled or clocked down during its samples, and variants of one case that ran at
// SM clocks far apart, so that their comparison mixes two speeds of the GPU. Plain arithmetic on
// the records.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// "Well below": an SM clock at the end of the samples under this share of the reference clock
// (the applications clock, else the maximum). A GPU under load runs at its reference clock or
// boosts above it; 10% below is more than clock steps and reading jitter, and slows every step.
inline constexpr double kClockedDownShare = 0.90;

// Two variants of one case ran at SM clocks "apart" when the lower is more than this share below
// the higher (exactly 5% is not apart).
inline constexpr double kClocksApartShare = 0.05;

// The SM clock a variant ran at: the mean of the readings after its samples, else the mean of
// its start and end (either alone when the other is missing); none when none was read.
std::optional<double> sm_clock_ran_at(const ResultRecord& record);

// True when `lower` is more than kClocksApartShare below `higher` (either order).
bool clocks_apart(double a_mhz, double b_mhz);

// The warnings of one variant on its own: throttle reasons other than idle seen during its
// samples, and an SM clock at their end well below the reference clock. None when clocks are
// steady or were not read.
std::vector<std::string> variant_clock_warnings(const ResultRecord& record);

// Adds every clock warning to the ok records of one case: each variant's own, and, to each
// variant whose clock was more than 5% below the fastest-clocked variant's, a warning naming
// both.
void add_clock_warnings(const std::vector<ResultRecord*>& case_records);

}  // namespace graphbench
