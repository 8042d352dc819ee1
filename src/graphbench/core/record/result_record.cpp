#include "graphbench/core/record/result_record.h"

namespace graphbench {

const ResultRecord* RunReport::find(const std::string& case_name, const std::string& variant) const {
  for (const ResultRecord& r : records) {
    if (r.case_name == case_name && r.variant == variant) return &r;
  }
  return nullptr;
}

bool is_training(const ResultRecord& record) { return record.kind == RecordKind::kTraining || record.training.has_value(); }

std::string status_text(const ResultRecord& record) {
  switch (record.status) {
    case RecordStatus::kOk: return record.reason.empty() ? "ok" : "ok: " + record.reason;
    case RecordStatus::kSkipped: return record.reason.empty() ? "skipped" : "skipped: " + record.reason;
    case RecordStatus::kFailed: return record.reason.empty() ? "FAILED" : "FAILED: " + record.reason;
  }
  return to_string(record.status);
}

bool has_ok_samples(const ResultRecord* r) {
  return r != nullptr && r->status == RecordStatus::kOk && !r->samples_us.empty();
}

bool has_too_few_samples(const ResultRecord& record) {
  return record.status == RecordStatus::kOk && record.min_samples &&
         record.samples_us.size() < static_cast<std::size_t>(*record.min_samples);
}

std::string nodes_text(const std::vector<int>& ranks_per_node) {
  if (ranks_per_node.empty()) return "no nodes";
  bool even = true;
  for (int n : ranks_per_node) even = even && n == ranks_per_node.front();
  std::string counts;
  if (even) {
    counts = std::to_string(ranks_per_node.front());
  } else {
    for (std::size_t i = 0; i < ranks_per_node.size(); ++i) counts += (i ? ", " : "") + std::to_string(ranks_per_node[i]);
  }
  const std::size_t nodes = ranks_per_node.size();
  return std::to_string(nodes) + (nodes == 1 ? " node of " : " nodes of ") + counts + (counts == "1" ? " rank" : " ranks");
}

}  // namespace graphbench
