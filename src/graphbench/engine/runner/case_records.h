// The records of one case, one per variant: identity, published figures, skipped or failed with why.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace graphbench {

// A variant of a case with the record it fills.
struct VariantRecord {
  Variant variant;
  ResultRecord* record = nullptr;
};

// The record of (spec, variant) before anything ran: identity, params, published figures.
ResultRecord make_record(const CaseSpec& spec, const Variant& variant, const CaseContext& context);
// One per variant of `spec`, in order.
std::vector<ResultRecord> make_records(const CaseSpec& spec, const CaseContext& context);
// The variants `why` names no reason for, each with its record of `records` (parallel to
// spec.variants, or to `variants`); the others are marked skipped with the reason.
using SkipReasonFn = std::function<std::string(const Variant&)>;
std::vector<VariantRecord> runnable_variants(const CaseSpec& spec, std::vector<ResultRecord>& records,
                                             const SkipReasonFn& why);
std::vector<VariantRecord> runnable_variants(const std::vector<VariantRecord>& variants, const SkipReasonFn& why);

// Says "  <case>: <line>" on `log` (nothing where it is null).
using CaseLog = std::function<void(const std::string&)>;
CaseLog case_log(std::ostream* log, const std::string& case_name);
// Where `why` is not "": says it and skips every variant of `runnable` with it.
bool skipped_all(const std::string& why, const std::vector<VariantRecord>& runnable, const CaseLog& say);

// Why `variant` cannot run here (a graph variant on the CPU, or in a build without CUDA), or "".
std::string skip_reason(const Variant& variant, const CaseContext& context);

void mark_failed(ResultRecord& record, const std::string& reason);
void mark_skipped(ResultRecord& record, const std::string& reason);
// A variant that ran eagerly after a failed capture stays ok, `reason` saying "ran eagerly, capture
// failed: <why>" once per distinct cause.
void note_capture_failures(ResultRecord& record, const VariantRunner& runner);

}  // namespace graphbench
