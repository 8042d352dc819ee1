// One benchmark case: skip what cannot run, validate against eager, time interleaved, summarise.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"

#include <ostream>
#include <vector>

namespace graphbench {

// `log` gets a line per phase. InputError propagates; other failures are recorded.
std::vector<ResultRecord> run_benchmark_case(const Workload& workload, const CaseSpec& spec,
                                             const CaseContext& context, const Environment& environment,
                                             std::ostream* log);

}  // namespace graphbench
