// The records of one case before and after it runs: one per variant, with the case's identity and
// published figures, marked skipped or failed with the reason. Shared by benchmark and training cases.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"

#include <string>

namespace graphbench {

// A variant of a case with the record it fills.
struct VariantRecord {
  Variant variant;
  ResultRecord* record = nullptr;
};

// The record of (spec, variant) before anything ran: identity, params, published figures.
ResultRecord make_record(const CaseSpec& spec, const Variant& variant, const CaseContext& context);

// Why `variant` cannot run here (a graph variant on the CPU, or in a build without CUDA), or "".
std::string skip_reason(const Variant& variant, const CaseContext& context);

void mark_failed(ResultRecord& record, const std::string& reason);
void mark_skipped(ResultRecord& record, const std::string& reason);
// A variant whose capture failed and that ran eagerly instead (the model workloads fall back so):
// its record stays ok, the run goes on, and `reason` says "ran eagerly, capture failed: <why>",
// once per distinct cause the runner reports.
void note_capture_failures(ResultRecord& record, const VariantRunner& runner);

}  // namespace graphbench
