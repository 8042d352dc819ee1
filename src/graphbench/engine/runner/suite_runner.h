// Runs every case of a suite, in order; a case that fails is recorded and the run goes on. A stop
// request (SIGINT, SIGTERM: core/base/interrupt.h) ends the run after the current sample or training
// step: the case it cut short is dropped, the cases that finished are kept.
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
  // 0 all ok or skipped, 1 a case failed, 2 bad input (ExitCode); an interrupted run's code is
  // the caller's (128 + the signal).
  int exit_code() const { return bad_input ? kExitBadInput : any_failed ? kExitFailure : kExitOk; }
};

// Before anything runs: each case's workload checks what the case names outside the suite file
// (Workload::preflight: model files). Throws the first InputError: a bad suite ends the run with
// exit code 2 before any case has run.
void preflight_suite(const SuiteSpec& suite, const WorkloadRegistry& workloads);

// How one case runs. Empty: benchmark and training cases in this process (run_benchmark_case,
// run_training_case); a data-parallel run passes its own (parallel/cases/data_parallel_suite.h).
using CaseRunFn = std::function<std::vector<ResultRecord>(const Workload&, const CaseSpec&, const Environment&)>;

// Runs preflight_suite, then the cases. `log` (may be null: -q) gets the progress lines;
// `errors` (may be null in tests) gets every failure, whatever -q says.
SuiteOutcome run_suite(const SuiteSpec& suite, const WorkloadRegistry& workloads, const CaseContext& context,
                       Environment environment, std::ostream* log, std::ostream* errors = nullptr,
                       const CaseRunFn& run_case = {});

}  // namespace graphbench
