// The summary phase: samples into statistics, warnings, roofline, counters, speedups with intervals.
#pragma once

#include "graphbench/core/record/environment_block.h"
#include "graphbench/engine/runner/case_timing.h"
#include "graphbench/engine/runner/workload.h"

namespace graphbench {

void summarize_timing(TimedCase& timed, const StepCost& cost, const Environment& environment);

// The host-bound rule: the host's issue time per step is within 5% of the device time per step.
bool is_host_bound(double issue_median_us, double device_median_us);

}  // namespace graphbench
