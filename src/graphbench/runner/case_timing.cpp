#include "graphbench/runner/case_timing.h"

#include "graphbench/env/gpu_info.h"
#include "graphbench/report/progress.h"
#include "graphbench/timing/step_timer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace graphbench {

TimedCase time_variants(CaseInstance& instance, const std::vector<VariantRecord>& variants, const CaseSpec& spec,
                        const CaseContext& context, const SamplingAgreement* agreement, std::optional<double> time_left_s) {
  const auto started = std::chrono::steady_clock::now();
  TimedCase out;
  for (const auto& v : variants) {
    if (v.record->status != RecordStatus::kOk) continue;
    try {
      auto runner = instance.make_runner(v.variant, /*validation=*/false);
      int repeat = 1;
      if (v.variant.name() == context.slowdown_variant && context.slowdown_factor > 1) {
        // Test-only: every step runs `factor` times, to check that compare catches a slowdown.
        repeat = context.slowdown_factor;
        v.record->warnings.push_back(fmt::format("test-only slowdown injected: every step runs {} times", repeat));
      }
      VariantRunner* raw = runner.get();
      TimedVariant t;
      t.name = v.variant.name();
      t.step = [raw, repeat] {
        for (int i = 0; i < repeat; ++i) raw->step();
      };
      out.runners.push_back(std::move(runner));
      out.timed.push_back(std::move(t));
      out.variants.push_back(v);
    } catch (const std::exception& e) {
      mark_failed(*v.record, e.what());
    }
  }
  if (out.timed.empty()) return out;
  out.sm_clock_start_mhz = current_sm_clock_mhz();
  const L2Cache l2 = context.cold_l2 ? L2Cache::kCold : L2Cache::kHot;
  if (context.device.is_cuda()) out.l2 = to_string(l2);
  StepTimer timer(context.device.is_cuda(), l2);
  ProgressLine progress(context.progress);
  SamplingObserver observer;
  if (progress.active()) {
    observer = [&](const std::vector<TimedVariant>& variants, const SamplingProgress& p) {
      if (progress.due()) progress.update(sampling_progress_text(spec.name, variants, p));
    };
  }
  SamplingSpec sampling = spec.sampling;
  if (time_left_s) {
    const double making_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    sampling.max_time_s = std::max(*time_left_s - making_s, 0.0);
  }
  out.stop_reason = sample_interleaved(out.timed, sampling, timer, observer, agreement);
  out.sm_clock_end_mhz = current_sm_clock_mhz();
  return out;
}

}  // namespace graphbench
