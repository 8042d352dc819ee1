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

// The break-even's range over the speedup's 95% interval: a replay saves eager_us (1 - 1 / s) for
// a speedup s, so the replays run from those at the interval's high end (`fewest`) to those at its
// low end (`most`; none where the interval reaches 1: the graph may save nothing). nullopt as
// break_even, or without a usable interval.
struct BreakEvenRange {
  std::int64_t fewest = 0;
  std::optional<std::int64_t> most;
};
std::optional<BreakEvenRange> break_even_range(double capture_ms, double warmup_ms, double eager_us, double speedup_low,
                                               double speedup_high);

}  // namespace graphbench::stats
