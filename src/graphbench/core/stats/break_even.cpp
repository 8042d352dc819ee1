#include "graphbench/core/stats/break_even.h"

#include <algorithm>
#include <cmath>

namespace graphbench::stats {

std::optional<BreakEven> break_even(double capture_ms, double warmup_ms, double eager_us, double graph_us) {
  const bool usable = std::isfinite(capture_ms) && std::isfinite(warmup_ms) && std::isfinite(eager_us) &&
                      std::isfinite(graph_us) && capture_ms >= 0 && warmup_ms >= 0 && graph_us > 0;
  if (!usable || graph_us >= eager_us) return std::nullopt;
  const double cost_us = (capture_ms + warmup_ms) * 1000.0;
  const double saved_us = eager_us - graph_us;
  BreakEven b;
  // At least one replay: a capture that cost nothing still has to run once to save anything.
  b.replays = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(cost_us / saved_us)));
  b.seconds = static_cast<double>(b.replays) * graph_us * 1e-6;
  return b;
}

std::optional<BreakEvenRange> break_even_range(double capture_ms, double warmup_ms, double eager_us, double speedup_low,
                                               double speedup_high) {
  if (!(speedup_high > 1.0) || !std::isfinite(speedup_high) || !(speedup_low > 0.0) || !(eager_us > 0.0)) {
    return std::nullopt;
  }
  const auto fastest = break_even(capture_ms, warmup_ms, eager_us, eager_us / speedup_high);
  if (!fastest) return std::nullopt;
  BreakEvenRange range;
  range.fewest = fastest->replays;
  if (speedup_low > 1.0) {
    if (const auto slowest = break_even(capture_ms, warmup_ms, eager_us, eager_us / speedup_low)) range.most = slowest->replays;
  }
  return range;
}

}  // namespace graphbench::stats
