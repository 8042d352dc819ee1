#include "graphbench/runner/training_case.h"

#include "graphbench/core/errors.h"
#include "graphbench/exec/executor.h"
#include "graphbench/runner/benchmark_case.h"

namespace graphbench {

std::vector<ResultRecord> run_training_case(const Workload& workload, const CaseSpec& spec,
                                            const CaseContext& context, std::ostream* log) {
  std::vector<ResultRecord> records;
  for (const auto& variant : spec.variants) {
    ResultRecord record = make_record(spec, variant, context);
    if (variant_needs_cuda_graph(variant) && (!context.device.is_cuda() || !cuda_graphs_available())) {
      record.status = RecordStatus::kSkipped;
      record.reason = context.device.is_cuda() ? "this graphbench was built against a LibTorch without CUDA"
                                               : "CUDA graphs need a CUDA device; this run is on the CPU";
      records.push_back(std::move(record));
      continue;
    }
    if (log != nullptr) *log << "  " << spec.name << ": training, variant " << variant << std::endl;
    try {
      at::manual_seed(context.seed);
      record.training = workload.train(spec, variant, context);
    } catch (const InputError&) {
      throw;  // bad data or settings: the suite runner records it for every variant
    } catch (const std::exception& e) {
      record.status = RecordStatus::kFailed;
      record.reason = e.what();
    }
    records.push_back(std::move(record));
  }
  // Speed-up of whole runs: eager's total time over each variant's.
  const ResultRecord* eager = nullptr;
  for (const auto& r : records) {
    if (r.variant == "eager" && r.status == RecordStatus::kOk && r.training) eager = &r;
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
