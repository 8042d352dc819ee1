// compare's line about clocks: whether the current run's SM clocks sat below the baseline's, so
// that a slower figure may be the GPU's and not the code's. Information, never a failure.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <optional>
#include <string>

namespace graphbench {

// One line when some (case, variant) ok in both runs ran at an SM clock more than 5% below its
// baseline's (core/clocks/clock_warnings.h: sm_clock_ran_at, clocks_apart): how many, and the
// furthest below. None when every clock held, or no record has clocks on both sides.
std::optional<std::string> clock_comparison_line(const RunReport& baseline, const RunReport& current);

}  // namespace graphbench
