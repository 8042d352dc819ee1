// Phases 4 to 6 of a data-parallel case (data_parallel_case.h): what the records' data-parallel
// figures need beyond the timing of the step itself.
#pragma once

#include "graphbench/parallel/communicator.h"
#include "graphbench/runner/case_timing.h"
#include "graphbench/runner/data_parallel.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphbench::parallel {

// Each timed variant's median step time on every rank, by variant name, then by rank (rank 0
// only; empty elsewhere). A variant that failed on a rank has NaN there.
std::map<std::string, std::vector<double>> gather_rank_medians(Communicator& communicator, const TimedCase& timed);

// The gradient all-reduce alone, median per step on this rank: "eager" always, "graph" when CUDA
// graphs can run. Sampled like the case (all ranks in step).
std::map<std::string, double> time_all_reduce_alone(const std::shared_ptr<Communicator>& communicator,
                                                    const std::vector<TensorSpec>& gradients, const CaseSpec& spec,
                                                    const CaseContext& context);

// The variants' median step times in a world of one: rank 0 alone (a process group of its own),
// the same batch, while the other ranks wait. Every rank gets the medians (by variant name; a
// variant that failed alone is missing) and why the baseline failed, if it did. With one rank,
// nothing runs: `own` is the answer.
struct OneRankBaseline {
  std::map<std::string, double> median_us;
  std::string error;
};
OneRankBaseline time_one_rank(const std::shared_ptr<Communicator>& communicator, const Workload& workload,
                                            const CaseSpec& spec, const CaseContext& context,
                                            const ModelStore& initial_params, const std::vector<VariantRecord>& variants,
                                            const std::map<std::string, double>& own);

// Fills each timed record's data-parallel figures (rank 0).
void fill_data_parallel_figures(const TimedCase& timed, const std::map<std::string, std::vector<double>>& rank_medians,
                                const std::map<std::string, double>& all_reduce_us,
                                const OneRankBaseline& one_rank, const DataParallelCase& instance,
                                const Communicator& communicator);

}  // namespace graphbench::parallel
