#include "graphbench/engine/runner/case_records.h"

#include "graphbench/engine/exec/executor.h"
#include "graphbench/core/suite/published_fields.h"

namespace graphbench {

ResultRecord make_record(const CaseSpec& spec, const Variant& variant, const CaseContext& context) {
  ResultRecord record;
  record.case_name = spec.name;
  record.workload = spec.workload;
  record.variant = variant.name();
  record.method = variant.method();
  record.kind = spec.kind == "training" ? RecordKind::kTraining : RecordKind::kBenchmark;
  record.mode = spec.mode == "train" ? Mode::kTrain : Mode::kInference;
  record.dtype = spec.dtype;
  record.device = context.device.is_cuda() ? "cuda" : "cpu";
  record.params = spec.params;
  record.sweep = spec.sweep_point;
  record.scope = spec.scope.to_string();
  record.scope_group = spec.scope_group;
  for (const auto& published : spec.published) {
    if (published.variant != variant.name() || !published_applies(published, record.device)) continue;
    record.published = PublishedComparison{published.speedup, published.eager_us, published.variant_us,
                                           published.source, published.device};
  }
  return record;
}

std::vector<ResultRecord> make_records(const CaseSpec& spec, const CaseContext& context) {
  std::vector<ResultRecord> records;
  for (const auto& variant : spec.variants) records.push_back(make_record(spec, variant, context));
  return records;
}

std::vector<VariantRecord> runnable_variants(const std::vector<VariantRecord>& variants, const SkipReasonFn& why) {
  std::vector<VariantRecord> runnable;
  for (const VariantRecord& v : variants) {
    if (const std::string reason = why(v.variant); !reason.empty()) {
      mark_skipped(*v.record, reason);
    } else {
      runnable.push_back(v);
    }
  }
  return runnable;
}

std::vector<VariantRecord> runnable_variants(const CaseSpec& spec, std::vector<ResultRecord>& records,
                                             const SkipReasonFn& why) {
  std::vector<VariantRecord> all;
  for (std::size_t i = 0; i < records.size(); ++i) all.push_back({spec.variants[i], &records[i]});
  return runnable_variants(all, why);
}

CaseLog case_log(std::ostream* log, const std::string& case_name) {
  return [log, case_name](const std::string& line) {
    if (log != nullptr) *log << "  " << case_name << ": " << line << std::endl;
  };
}

bool skipped_all(const std::string& why, const std::vector<VariantRecord>& runnable, const CaseLog& say) {
  if (why.empty()) return false;
  say(why);
  for (const VariantRecord& v : runnable) mark_skipped(*v.record, why);
  return true;
}

std::string skip_reason(const Variant& variant, const CaseContext& context) {
  if (!variant.needs_cuda_graph()) return "";
  if (!context.device.is_cuda()) return "CUDA graphs need a CUDA device; this run is on the CPU";
  if (!cuda_graphs_available()) return "this graphbench was built against a LibTorch without CUDA";
  return "";
}

void mark_failed(ResultRecord& record, const std::string& reason) {
  record.status = RecordStatus::kFailed;
  record.reason = reason;
}

void mark_skipped(ResultRecord& record, const std::string& reason) {
  record.status = RecordStatus::kSkipped;
  record.reason = reason;
}

void note_capture_failures(ResultRecord& record, const VariantRunner& runner) {
  for (const auto& why : runner.capture_failures()) {
    const std::string text = kRanEagerlyReason + why;
    if (record.reason.find(text) != std::string::npos) continue;
    record.reason += (record.reason.empty() ? "" : "; ") + text;
  }
}

}  // namespace graphbench
