// A training case (kind "training"): each variant trains for real, epochs of it, printing the
// tutorial's lines; the record holds per-epoch times and accuracies.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"

#include <ostream>
#include <vector>

namespace graphbench {

// Under a limit for the whole case, each of `variants` trains whole epochs within its share, its
// plan said on `log` (core/sampling/case_budget.h).
CaseContext::TrainingLimit training_limit(const CaseSpec& spec, int variants,
                                          std::ostream* log);

// The seconds of a run's epochs, training and testing: what its time limit counts.
double epochs_seconds(const TrainingSummary& training);

// Speed-up of whole runs (records parallel to spec.variants): eager's total time over each variant's.
void fill_training_speedups(std::vector<ResultRecord>& records, const CaseSpec& spec);

std::vector<ResultRecord> run_training_case(const Workload& workload, const CaseSpec& spec,
                                            const CaseContext& context, std::ostream* log);

}  // namespace graphbench
