// One benchmark case, all its variants, in three phases: skip what cannot run here, validate the
// rest against eager (validation.h), time them interleaved (case_timing.h), and summarise the
// samples into the records (case_summary.h).
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"

#include <ostream>
#include <vector>

namespace graphbench {

// `log` (may be null) gets one progress line per phase. InputError (bad data or parameters)
// propagates; any other failure is recorded in the records.
std::vector<ResultRecord> run_benchmark_case(const Workload& workload, const CaseSpec& spec,
                                             const CaseContext& context, const Environment& environment,
                                             std::ostream* log);

}  // namespace graphbench
