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

}  // namespace graphbench
