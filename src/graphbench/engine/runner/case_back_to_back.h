// The back-to-back phase, after the profile: every timed variant's steps queued ahead of the device,
// so its device time per step is read without the host's pace (engine/timing/back_to_back.h). CUDA
// with a hot L2 only; elsewhere the field is absent, never zero.
#pragma once

#include "graphbench/engine/runner/case_timing.h"

#include <chrono>
#include <optional>

namespace graphbench {

// Fills back_to_back_us of every timed record still ok, or a warning why not; no try after `deadline`.
void time_variants_back_to_back(TimedCase& timed, const CaseContext& context,
                                std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

}  // namespace graphbench
