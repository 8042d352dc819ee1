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

bool has_too_few_samples(const ResultRecord& record) {
  return record.status == RecordStatus::kOk && record.min_samples &&
         record.samples_us.size() < static_cast<std::size_t>(*record.min_samples);
}

}  // namespace graphbench
