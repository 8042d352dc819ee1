#include "graphbench/parallel/cases/no_all_reduce_step.h"

#include "graphbench/parallel/cases/agreement.h"
#include "graphbench/parallel/cases/replicas.h"
#include "graphbench/parallel/cases/scaling.h"
#include "graphbench/engine/runner/case_timing.h"
#include "graphbench/engine/runner/data_parallel.h"

namespace graphbench::parallel {

NoAllReduceTiming time_without_all_reduce(Communicator& communicator, const Workload& workload, const CaseSpec& spec,
                                          const CaseContext& context, const ModelStore& initial_params,
                                          const std::vector<VariantRecord>& variants) {
  const auto started = std::chrono::steady_clock::now();
  NoAllReduceTiming out;
  std::unique_ptr<DataParallelCase> instance;
  std::string error;
  try {
    // No communicator: this rank's shard, its own gradients, chunked as the step's are.
    instance = instance_from(workload, spec, context, shard_setup(communicator, spec), initial_params);
  } catch (const std::exception& e) {
    error = e.what();
  }
  out.error = agree_on_errors(communicator, error);
  if (!out.error.empty()) return out;
  std::vector<ResultRecord> records;
  const std::vector<VariantRecord> timed_variants = still_ok(variants, records);
  const SamplingAgreement agreement = sampling_agreement(communicator);
  const TimedCase timed =
      time_variants(*instance, timed_variants, spec, context, &agreement, phase_time_left_s(spec, context, started));
  out.rank_median_us = gather_rank_timings(communicator, timed).median_us;
  return out;
}

}  // namespace graphbench::parallel
