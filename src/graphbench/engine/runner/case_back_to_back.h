// The back-to-back phase of a benchmark case, after its profile: every timed variant's steps
// queued ahead of the device, so that its device time per step is read without the host's pace
// (engine/timing/back_to_back.h). On a host-bound step this is what the GPU needs where the timed figure
// says what the host allows. CUDA with a hot L2 only; elsewhere the field is absent, never zero.
#pragma once

#include "graphbench/engine/runner/case_timing.h"

#include <chrono>
#include <optional>

namespace graphbench {

// Fills back_to_back_us of every timed record that is still ok; a variant whose steps cannot be
// queued ahead (one that waits for the device) gets a warning saying why instead.
// `deadline` (where the case has a time limit): no try starts after it.
void time_variants_back_to_back(TimedCase& timed, const CaseContext& context,
                                std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

}  // namespace graphbench
