// --trace DIR: after a case's timed samples, a few steps of each timed variant traced
// (engine/timing/step_trace.h) into DIR/<case>.<variant>.trace.json, for Perfetto and for
// scripts/trace_timeline.py; a data-parallel case writes one file per rank,
// DIR/<case>.<variant>.rank<R>.trace.json, every rank tracing the same steps at once (they step
// in lockstep through their collectives). A trace that cannot be written is a warning on its record.
#pragma once

#include "graphbench/engine/runner/case_timing.h"
#include "graphbench/engine/runner/workload.h"

#include <string>

namespace graphbench {

inline constexpr int kTracedSteps = 3;
inline constexpr int kUntracedStepsBeforeTrace = 2;

// "<case>.<variant>.trace.json" with every character but [A-Za-z0-9._-] written as '_';
// "<case>.<variant>.rank<R>.trace.json" for rank R (>= 0) of a data-parallel run.
std::string trace_file_name(const std::string& case_name, const std::string& variant, int rank = -1);

void trace_variants(TimedCase& timed, const CaseContext& context, int rank = -1);

}  // namespace graphbench
