// One benchmark case, all its variants: skip what cannot run here, validate the rest against
// eager, time them interleaved, and turn the samples into result records.
#pragma once

#include "graphbench/record/result_record.h"
#include "graphbench/runner/workload.h"

#include <ostream>
#include <vector>

namespace graphbench {

// `log` (may be null) gets one progress line per phase.
std::vector<ResultRecord> run_benchmark_case(const Workload& workload, const CaseSpec& spec,
                                             const CaseContext& context, const Environment& environment,
                                             std::ostream* log);

// The record of (spec, variant) before anything ran: identity, params, published figures.
ResultRecord make_record(const CaseSpec& spec, const std::string& variant, const CaseContext& context);

}  // namespace graphbench
