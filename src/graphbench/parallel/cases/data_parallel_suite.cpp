#include "graphbench/parallel/cases/data_parallel_suite.h"

#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"
#include "graphbench/parallel/cases/data_parallel_case.h"
#include "graphbench/parallel/cases/data_parallel_training.h"

namespace graphbench::parallel {

SuiteOutcome run_suite_data_parallel(const SuiteSpec& suite, const WorkloadRegistry& workloads,
                                     const CaseContext& context, Environment environment,
                                     const std::shared_ptr<Communicator>& communicator, std::ostream* log,
                                     std::ostream* errors) {
  auto run_case = [&](const Workload& workload, const CaseSpec& given, const Environment& env) {
    // What "grad_transport": "auto" is among these ranks, so that every record says what ran.
    CaseSpec spec = given;
    spec.gradient_sync.transport = resolve_transport(given.gradient_sync, *communicator);
    if (spec.kind == "training") return run_data_parallel_training(workload, spec, context, communicator, log);
    return run_data_parallel_case(workload, spec, context, env, communicator, log);
  };
  return run_suite(suite, workloads, context, std::move(environment), log, errors, run_case);
}

}  // namespace graphbench::parallel
