#include "graphbench/runner/training_case.h"

#include "graphbench/core/errors.h"
#include "graphbench/runner/case_records.h"

namespace graphbench {

std::vector<ResultRecord> run_training_case(const Workload& workload, const CaseSpec& spec,
                                            const CaseContext& context, std::ostream* log) {
  std::vector<ResultRecord> records;
  for (const auto& variant : spec.variants) {
    ResultRecord record = make_record(spec, variant, context);
    const std::string why = skip_reason(variant, context);
    if (!why.empty()) {
      mark_skipped(record, why);
      records.push_back(std::move(record));
      continue;
    }
    if (log != nullptr) *log << "  " << spec.name << ": training, variant " << variant.name() << std::endl;
    try {
      at::manual_seed(context.seed);
      record.training = workload.train(spec, variant, context);
    } catch (const InputError&) {
      throw;  // bad data or settings: the suite runner records it for every variant
    } catch (const std::exception& e) {
      mark_failed(record, e.what());
    }
    records.push_back(std::move(record));
  }
  // Speed-up of whole runs: eager's total time over each variant's.
  const ResultRecord* eager = nullptr;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const ResultRecord& r = records[i];
    if (spec.variants[i].is_eager_baseline() && r.status == RecordStatus::kOk && r.training) eager = &r;
  }
  if (eager != nullptr) {
    for (auto& r : records) {
      if (r.status == RecordStatus::kOk && r.training && r.training->total_seconds > 0) {
        r.speedup_vs_eager = eager->training->total_seconds / r.training->total_seconds;
      }
    }
  }
  return records;
}

}  // namespace graphbench
