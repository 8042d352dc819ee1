// A whole suite run data-parallel: every rank runs every case in step (data_parallel_case.h).
// Cases whose workload has no data-parallel form are skipped with the reason; training cases
// (epochs of real data) are not run data-parallel yet and are skipped too.
#pragma once

#include "graphbench/dist/communicator.h"
#include "graphbench/runner/suite_runner.h"

#include <memory>
#include <ostream>

namespace graphbench::dist {

SuiteOutcome run_suite_data_parallel(const SuiteSpec& suite, const WorkloadRegistry& workloads,
                                     const CaseContext& context, Environment environment,
                                     const std::shared_ptr<Communicator>& communicator, std::ostream* log);

}  // namespace graphbench::dist
