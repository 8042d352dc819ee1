// A training case (kind "training"): each variant trains for real, epochs of it, printing the
// tutorial's lines; the record holds per-epoch times and accuracies.
#pragma once

#include "graphbench/record/result_record.h"
#include "graphbench/runner/workload.h"

#include <ostream>
#include <vector>

namespace graphbench {

std::vector<ResultRecord> run_training_case(const Workload& workload, const CaseSpec& spec,
                                            const CaseContext& context, std::ostream* log);

}  // namespace graphbench
