// The memory of keeping a sweep's recommended graphs together: after the sweep's last point, each
// graph variant's recommended sizes (core/sweep/sweep_verdict.h) are set up again and captured, largest
// first, into one SharedGraphPool, as servers keep their graphs of every batch size; the pool's
// reserved bytes are what keeping them all costs. CUDA runs only.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"
#include "graphbench/core/suite/suite_spec.h"

#include <vector>

namespace graphbench {

// `points`: the cases of one sweep (same group), by value; `records`: the run's records so far.
// One measurement per graph variant that recommends at least one size; a failure to set up or
// capture is the measurement's error, not the run's.
std::vector<SharedPoolMeasurement> measure_shared_pools(const Workload& workload, const std::vector<const CaseSpec*>& points,
                                                        const std::vector<ResultRecord>& records,
                                                        const CaseContext& context);

}  // namespace graphbench
