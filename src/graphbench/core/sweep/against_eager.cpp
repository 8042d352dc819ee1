#include "graphbench/core/sweep/against_eager.h"

namespace graphbench {

void measure_against_eager(AgainstEager& out, const ResultRecord& variant, const ResultRecord& eager) {
  out.ok = true;
  out.reason.clear();
  out.eager_us = eager.stats->median;
  out.step_us = variant.stats->median;
  out.speedup = variant.speedup_vs_eager.value_or(out.eager_us / out.step_us);
  out.speedup_ci95 = variant.speedup_ci95;
  out.capture_ms = variant.capture_ms;
  out.warmup_ms = variant.warmup_ms;
  out.break_even_replays = variant.break_even_replays;
  out.break_even_s = variant.break_even_s;
}

}  // namespace graphbench
