// --trace DIR: after a case's timed samples, a few steps of each timed variant traced
// (timing/step_trace.h) into DIR/<case>.<variant>.trace.json, for Perfetto and for
// scripts/trace_timeline.py. A trace that cannot be written is a warning on its record.
#pragma once

#include "graphbench/runner/case_timing.h"
#include "graphbench/runner/workload.h"

#include <string>

namespace graphbench {

inline constexpr int kTracedSteps = 3;
inline constexpr int kUntracedStepsBeforeTrace = 2;

// "<case>.<variant>.trace.json" with every character but [A-Za-z0-9._-] written as '_'.
std::string trace_file_name(const std::string& case_name, const std::string& variant);

void trace_variants(TimedCase& timed, const CaseContext& context);

}  // namespace graphbench
