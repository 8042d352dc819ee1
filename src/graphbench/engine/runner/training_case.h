// A training case: each variant trains for real, printing the tutorial's lines; records hold its epochs.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/case_records.h"
#include "graphbench/engine/runner/workload.h"

#include <ostream>
#include <string>
#include <vector>

namespace graphbench {

// `context`, where its limit holds for the whole case with each variant `why` gives no reason to skip
// training whole epochs within its share, its plan said on `log` (core/sampling/case_budget.h).
CaseContext with_training_limit(const CaseSpec& spec, const CaseContext& context, std::ostream* log,
                                const SkipReasonFn& why);

// After a run (record.training set): its time-limit note a warning of `record`, and under a limit what the
// limit counted said on `log`: "  <case>: trained N epoch(s) in <seconds><where> (its time limit: ...)".
void note_training_limit(ResultRecord& record, const CaseSpec& spec, const CaseContext& limited, std::ostream* log,
                         const std::string& where = "");

// Speed-up of whole runs (records parallel to spec.variants): eager's total time over each variant's.
void fill_training_speedups(std::vector<ResultRecord>& records, const CaseSpec& spec);

std::vector<ResultRecord> run_training_case(const Workload& workload, const CaseSpec& spec,
                                            const CaseContext& context, std::ostream* log);

}  // namespace graphbench
