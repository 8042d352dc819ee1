// A training case (kind "training", whole epochs) run data-parallel: each variant's run on every
// rank, each rank a shard of every epoch (engine/runner/data_parallel.h). The records get rank 0's
// training summary (the test figures are the world's) and data-parallel figures: every rank's
// median step time, the slowest, samples/s, and whether every rank ended with the same params.
// There is no one-rank baseline here (it would be a whole training run): the benchmark case of
// the same step gives the scaling efficiency.
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
