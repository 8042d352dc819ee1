// A training case (kind "training"): each variant trains for real, epochs of it, printing the
// tutorial's lines; the record holds per-epoch times and accuracies.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"

#include <ostream>
#include <vector>

namespace graphbench {

// Under a limit that holds for the whole case (time_limit_cuts_validation), each of the case's
// `variants` that run trains within its share of the limit (whole epochs; core/sampling/case_budget.h),
// its plan said on `log`.
CaseContext::TrainingLimit training_limit(const CaseSpec& spec, int variants,
                                          std::ostream* log);

// The seconds of a run's epochs, training and testing: what its time limit counts.
double epochs_seconds(const TrainingSummary& training);

std::vector<ResultRecord> run_training_case(const Workload& workload, const CaseSpec& spec,
                                            const CaseContext& context, std::ostream* log);

}  // namespace graphbench
