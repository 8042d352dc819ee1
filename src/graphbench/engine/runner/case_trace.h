// --trace DIR: a few steps of each timed variant traced into DIR/<case>.<variant>[.rank<R>].trace.json
// (Perfetto, scripts/trace_timeline.py), ranks tracing the same steps; one not written is a warning.
#pragma once

#include "graphbench/engine/runner/case_timing.h"
#include "graphbench/engine/runner/workload.h"

#include <string>

namespace graphbench {

inline constexpr int kTracedSteps = 3;
inline constexpr int kUntracedStepsBeforeTrace = 2;

// "<case>.<variant>[.rank<R>].trace.json" (rank >= 0), every character but [A-Za-z0-9._-] as '_'.
std::string trace_file_name(const std::string& case_name, const std::string& variant, int rank = -1);

void trace_variants(TimedCase& timed, const CaseContext& context, int rank = -1);

}  // namespace graphbench
