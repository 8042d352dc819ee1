// A training case run data-parallel: each rank trains on a shard of every epoch. Records get rank 0's
// summary (the world's test figures) and data-parallel figures: the ranks' median step times, the
// slowest, samples/s, and whether all ranks ended with the same params. No one-rank baseline (a
// whole training run): the benchmark case of the same step gives the scaling efficiency.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"

#include <memory>
#include <ostream>
#include <vector>

namespace graphbench::parallel {

std::vector<ResultRecord> run_data_parallel_training(const Workload& workload, const CaseSpec& spec,
                                                     const CaseContext& context,
                                                     const std::shared_ptr<Communicator>& communicator, std::ostream* log);

}  // namespace graphbench::parallel
