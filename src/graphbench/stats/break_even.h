// How many replays repay a capture: the one-time cost of a graph (its capture and the warm-up
// steps before it) over what each replay saves against running the step eagerly.
#pragma once

#include <cstdint>
#include <optional>

namespace graphbench::stats {

struct BreakEven {
  std::int64_t replays = 0;  // the first replay count at which the capture has paid for itself
  double seconds = 0.0;      // those replays at the graph's step time
};

// nullopt when the graph saves nothing per step (graph_us >= eager_us) or an input is not a
// positive finite number (capture and warm-up may be 0).
std::optional<BreakEven> break_even(double capture_ms, double warmup_ms, double eager_us, double graph_us);

}  // namespace graphbench::stats
