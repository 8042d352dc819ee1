#include "graphbench/engine/runner/case_trace.h"

#include "graphbench/engine/timing/nvtx_range.h"
#include "graphbench/engine/timing/step_trace.h"

#include <filesystem>

namespace graphbench {

namespace {

std::string file_safe(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '_' || c == '-';
    if (!keep) c = '_';
  }
  return out;
}

}  // namespace

std::string trace_file_name(const std::string& case_name, const std::string& variant, int rank) {
  const std::string of_rank = rank >= 0 ? ".rank" + std::to_string(rank) : "";
  return file_safe(case_name) + "." + file_safe(variant) + of_rank + ".trace.json";
}

void trace_variants(TimedCase& timed, const CaseContext& context, int rank) {
  if (context.trace_dir.empty()) return;
  const NvtxRange phase("trace");
  std::error_code ec;
  std::filesystem::create_directories(context.trace_dir, ec);
  for (std::size_t i = 0; i < timed.runners.size(); ++i) {
    ResultRecord& record = *timed.variants[i].record;
    if (!timed.timed[i].error.empty() || record.status != RecordStatus::kOk) continue;
    VariantRunner& runner = *timed.runners[i];
    const NvtxRange range(record.variant);
    const std::string path =
        (std::filesystem::path(context.trace_dir) / trace_file_name(record.case_name, record.variant, rank)).string();
    try {
      const std::string why_not = trace_steps([&runner] { runner.step(); }, kUntracedStepsBeforeTrace, kTracedSteps,
                                              context.device.is_cuda(), path);
      if (!why_not.empty()) record.warnings.push_back("no trace: " + why_not);
    } catch (const std::exception& e) {
      record.warnings.push_back(std::string("no trace: ") + e.what());
    }
  }
}

}  // namespace graphbench
