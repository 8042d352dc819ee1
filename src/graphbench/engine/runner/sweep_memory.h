// The memory of a sweep's recommended graphs kept together: captured again, largest first, into one
// SharedGraphPool as servers keep theirs; the pool's reserved bytes are the cost. CUDA only.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"
#include "graphbench/core/suite/suite_spec.h"

#include <vector>

namespace graphbench {

// `points`: one sweep's cases; `records`: the run's so far. One measurement per graph variant that
// recommends a size; a failure is the measurement's error, not the run's.
std::vector<SharedPoolMeasurement> measure_shared_pools(const Workload& workload, const std::vector<const CaseSpec*>& points,
                                                        const std::vector<ResultRecord>& records,
                                                        const CaseContext& context);

}  // namespace graphbench
