// Warnings about the clocks a case ran at (docs/measuring.md, "Clocks, temperature, power"): a
// variant throttled or clocked down during its samples, and variants of one case at SM clocks far
// apart (their comparison mixes two speeds of the GPU).
#pragma once

#include "graphbench/core/record/result_record.h"

#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// "Well below" the reference clock (applications clock, else the maximum): more than clock steps and
// reading jitter, since a GPU under load runs at it or above.
inline constexpr double kClockedDownShare = 0.90;

// Two variants of one case ran at SM clocks "apart" when the lower is more than this share below
// the higher (exactly 5% is not apart).
inline constexpr double kClocksApartShare = 0.05;

// The SM clock a variant ran at: the mean after its samples, else of its start and end; none unread.
std::optional<double> sm_clock_ran_at(const ResultRecord& record);

// True when `lower` is more than kClocksApartShare below `higher` (either order).
bool clocks_apart(double a_mhz, double b_mhz);

// One variant's own warnings: throttle reasons other than idle during its samples, an SM clock at
// their end well below the reference clock.
std::vector<std::string> variant_clock_warnings(const ResultRecord& record);

// Adds every clock warning to the ok records of one case: each variant's own, and one naming both
// where a variant's clock was apart from the fastest-clocked variant's.
void add_clock_warnings(const std::vector<ResultRecord*>& case_records);

// compare's line about clocks: how many (case, variant) ok in both runs ran at an SM clock apart
// below the baseline's, and the furthest below, so that a slower figure may be the GPU's and not the
// code's (never a failure); none when every clock held or none was read on both sides.
std::optional<std::string> clock_comparison_line(const RunReport& baseline, const RunReport& current);

}  // namespace graphbench
