// Phases 4 to 7 of a data-parallel case (data_parallel_case.h): the figures beyond the step's timing.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"
#include "graphbench/parallel/cases/no_all_reduce_step.h"
#include "graphbench/engine/runner/case_timing.h"
#include "graphbench/engine/runner/data_parallel.h"

#include <map>
#include <string>
#include <vector>

namespace graphbench::parallel {

// Each timed variant's step times by rank, gathered to rank 0: medians (NaN where it failed) and samples.
struct RankTimings {
  std::map<std::string, std::vector<double>> median_us;
  std::map<std::string, std::vector<std::vector<double>>> samples_us;
};
RankTimings gather_rank_timings(Communicator& communicator, const TimedCase& timed);

// This rank's samples of every variant that timed without error, by variant name.
std::map<std::string, std::vector<double>> samples_of(const TimedCase& timed);

// The gradient all-reduce alone, median per step on this rank ("eager", and "graph" where graphs
// run), the ranks in step; `order`: the step's bucketing order.
std::map<std::string, double> time_all_reduce_alone(const std::shared_ptr<Communicator>& communicator,
                                                    const std::vector<TensorSpec>& gradients,
                                                    const GradientAverageOptions& options,
                                                    const std::vector<std::size_t>& order, const CaseSpec& spec,
                                                    const CaseContext& context);

// The variants' step times with rank 0 alone (a world of one) while the others wait; every rank gets
// the samples and why the baseline failed. One rank: `own` is the answer.
struct OneRankBaseline {
  std::map<std::string, std::vector<double>> samples_us;
  std::string error;
};
OneRankBaseline time_one_rank(const std::shared_ptr<Communicator>& communicator, const Workload& workload,
                              const CaseSpec& spec, const CaseContext& context, const ModelStore& initial_params,
                              const std::vector<VariantRecord>& variants,
                              const std::map<std::string, std::vector<double>>& own);

// What the figures are made of, besides the timed step (rank 0 holds the gathered ones).
struct DataParallelTimings {
  RankTimings ranks;  // the step, by variant, by rank
  NoAllReduceTiming no_all_reduce;
  std::map<std::string, double> all_reduce_us;  // "eager", "graph"
  OneRankBaseline one_rank;
};

// The figures every record of this world shares: size, backend, version, tuning variables, batch.
DataParallelFigures world_figures(const Communicator& communicator, std::int64_t samples_per_rank);
// How the step averaged its gradients (`sync`).
void add_sync_figures(DataParallelFigures& d, const GradientSyncSpec& sync);
// The ranks' median step times (all finite): their median, the slowest rank, the samples/s it allows.
void add_rank_figures(DataParallelFigures& d, std::vector<double> rank_median_us);

// Fills each timed record's data-parallel figures (rank 0); `buckets`: how many the step launched.
void fill_data_parallel_figures(const TimedCase& timed, const DataParallelTimings& timings,
                                const DataParallelCase& instance, const GradientSyncSpec& sync, std::size_t buckets,
                                const Communicator& communicator);

}  // namespace graphbench::parallel
