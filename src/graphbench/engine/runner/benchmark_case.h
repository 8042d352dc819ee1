// One benchmark case: skip what cannot run here, validate the rest against eager (validation.h), time
// them interleaved (case_timing.h), summarise into the records (case_summary.h).
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
