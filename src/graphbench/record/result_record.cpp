#include "graphbench/record/result_record.h"

namespace graphbench {

const char* to_string(RecordStatus status) {
  switch (status) {
    case RecordStatus::kOk: return "ok";
    case RecordStatus::kSkipped: return "skipped";
    case RecordStatus::kFailed: return "failed";
  }
  return "unknown";
}

bool is_training(const ResultRecord& record) { return record.kind == "training" || record.training.has_value(); }

std::string status_text(const ResultRecord& record) {
  switch (record.status) {
    case RecordStatus::kOk: return record.reason.empty() ? "ok" : "ok: " + record.reason;
    case RecordStatus::kSkipped: return record.reason.empty() ? "skipped" : "skipped: " + record.reason;
    case RecordStatus::kFailed: return record.reason.empty() ? "FAILED" : "FAILED: " + record.reason;
  }
  return to_string(record.status);
}

bool has_too_few_samples(const ResultRecord& record) {
  return record.status == RecordStatus::kOk && record.min_samples &&
         record.samples_us.size() < static_cast<std::size_t>(*record.min_samples);
}

}  // namespace graphbench
