// Runs a suite's cases in order, failures recorded; SIGINT/SIGTERM stops it, the cut case dropped.
#pragma once

#include "graphbench/core/base/errors.h"
#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"
#include "graphbench/engine/runner/workload_registry.h"

#include <functional>
#include <ostream>
#include <vector>

namespace graphbench {

struct SuiteOutcome {
  RunReport report;         // report.interrupted: stopped by a signal
  bool any_failed = false;  // a case or variant failed
  bool bad_input = false;   // a case could not start because of bad input (data, parameters)
  // 0 ok or skipped, 1 a failure, 2 bad input; an interrupted run's is the caller's (128 + signal).
  int exit_code() const { return bad_input ? kExitBadInput : any_failed ? kExitFailure : kExitOk; }
};

// Each case's Workload::preflight before anything runs; throws the first InputError.
void preflight_suite(const SuiteSpec& suite, const WorkloadRegistry& workloads);

// How one case runs; empty: in this process (a data-parallel run passes its own).
using CaseRunFn = std::function<std::vector<ResultRecord>(const Workload&, const CaseSpec&, const Environment&)>;

// preflight_suite, then the cases. `log` (null: -q) gets progress, `errors` every failure.
SuiteOutcome run_suite(const SuiteSpec& suite, const WorkloadRegistry& workloads, const CaseContext& context,
                       Environment environment, std::ostream* log, std::ostream* errors = nullptr,
                       const CaseRunFn& run_case = {});

}  // namespace graphbench
