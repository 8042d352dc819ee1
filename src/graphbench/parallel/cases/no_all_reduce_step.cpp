#include "graphbench/parallel/cases/no_all_reduce_step.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/cases/agreement.h"
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
    DataParallelSetup setup;  // no communicator: this rank's shard, its own gradients
    setup.ranks = communicator.world_size();
    setup.shard = communicator.rank();
    setup.gradient_sync = spec.gradient_sync;  // the same program: its gradients chunked alike
    at::manual_seed(context.seed);
    instance = workload.instantiate_data_parallel(spec, context, setup);
    if (!instance) throw EngineError("the workload made no instance without all-reduce");
    instance->initial_params().copy_values_from(initial_params);
  } catch (const std::exception& e) {
    error = e.what();
  }
  out.error = agree_on_errors(communicator, error);
  if (!out.error.empty()) return out;
  std::vector<ResultRecord> records(variants.size());
  std::vector<VariantRecord> timed_variants;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    if (variants[i].record->status == RecordStatus::kOk) timed_variants.push_back({variants[i].variant, &records[i]});
  }
  const SamplingAgreement agreement = sampling_agreement(communicator);
  const TimedCase timed =
      time_variants(*instance, timed_variants, spec, context, &agreement, phase_time_left_s(spec, context, started));
  out.rank_median_us = gather_rank_timings(communicator, timed).median_us;
  return out;
}

}  // namespace graphbench::parallel
