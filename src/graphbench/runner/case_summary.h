// The summary phase of a benchmark case: samples into statistics, warnings, the roofline, counters,
// and each variant's speedup over eager with its bootstrap interval.
#pragma once

#include "graphbench/record/environment.h"
#include "graphbench/runner/case_timing.h"
#include "graphbench/runner/workload.h"

namespace graphbench {

void summarize_timing(TimedCase& timed, const StepCost& cost, const Environment& environment);

}  // namespace graphbench
