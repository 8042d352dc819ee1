// The back-to-back phase: steps queued ahead of the device, read without the host's pace
// (engine/timing/back_to_back.h). CUDA, hot L2 only; elsewhere absent, never zero.
#pragma once

#include "graphbench/engine/runner/case_timing.h"

#include <chrono>
#include <optional>

namespace graphbench {

// Fills back_to_back_us of every timed record still ok, or a warning why not; no try after `deadline`.
void time_variants_back_to_back(TimedCase& timed, const CaseContext& context,
                                std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

}  // namespace graphbench
