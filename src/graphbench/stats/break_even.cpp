#include "graphbench/stats/break_even.h"

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

}  // namespace graphbench::stats
