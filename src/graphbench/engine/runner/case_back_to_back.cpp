#include "graphbench/engine/runner/case_back_to_back.h"

#include "graphbench/core/stats/statistics.h"
#include "graphbench/engine/timing/back_to_back.h"

namespace graphbench {

void time_variants_back_to_back(TimedCase& timed, const CaseContext& context,
                                std::optional<std::chrono::steady_clock::time_point> deadline) {
  // A cold L2 is flushed before every timed step; steps run back to back find it warm.
  if (!back_to_back_available(context.device.is_cuda()) || context.cold_l2) return;
  for (std::size_t i = 0; i < timed.runners.size(); ++i) {
    ResultRecord& record = *timed.variants[i].record;
    const TimedVariant& t = timed.timed[i];
    if (!t.error.empty() || record.status != RecordStatus::kOk || t.device_us.empty() || t.issue_us.empty()) continue;
    VariantRunner& runner = *timed.runners[i];
    const BackToBackPlan plan =
        plan_back_to_back(stats::summarize(t.device_us).median, stats::summarize(t.issue_us).median);
    try {
      const BackToBackResult result = time_back_to_back(
          [&runner](std::int64_t steps, double hold_us) {
            return back_to_back_sample([&runner] { runner.step(); }, steps, hold_us);
          },
          plan, kBackToBackSamples,
          [&deadline] { return deadline.has_value() && std::chrono::steady_clock::now() >= *deadline; });
      record.back_to_back_us = result.us_per_step;
      if (!result.us_per_step) record.warnings.push_back("no back-to-back time: " + result.why_not);
    } catch (const std::exception& e) {
      record.warnings.push_back(std::string("no back-to-back time: ") + e.what());
    }
  }
}

}  // namespace graphbench
