// A whole suite run data-parallel, every rank in step; `log` and `errors` as run_suite's (null but on rank 0).
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/engine/runner/suite_runner.h"

#include <memory>
#include <ostream>

namespace graphbench::parallel {

SuiteOutcome run_suite_data_parallel(const SuiteSpec& suite, const WorkloadRegistry& workloads,
                                     const CaseContext& context, Environment environment,
                                     const std::shared_ptr<Communicator>& communicator, std::ostream* log,
                                     std::ostream* errors);

}  // namespace graphbench::parallel
