// Phase 4 of a data-parallel case (data_parallel_case.h): every rank times the same variants on its
// shard with its own gradients (no communicator, chunked alike), all ranks at once: the step at N
// ranks minus this is the all-reduce time backward did not hide.
#pragma once

#include "graphbench/engine/exec/model_store.h"
#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/engine/runner/case_records.h"
#include "graphbench/engine/runner/workload.h"

#include <map>
#include <string>
#include <vector>

namespace graphbench::parallel {

struct NoAllReduceTiming {
  // By variant name, then by rank (rank 0 only); NaN where the variant failed on a rank.
  std::map<std::string, std::vector<double>> rank_median_us;
  std::string error;  // why the instance could not be made (the same on every rank)
};

NoAllReduceTiming time_without_all_reduce(Communicator& communicator, const Workload& workload, const CaseSpec& spec,
                                          const CaseContext& context, const ModelStore& initial_params,
                                          const std::vector<VariantRecord>& variants);

}  // namespace graphbench::parallel
