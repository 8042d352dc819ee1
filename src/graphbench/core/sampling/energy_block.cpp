#include "graphbench/core/sampling/energy_block.h"

#include <algorithm>

namespace graphbench {

EnergyReadings run_energy_block(TimedVariant& v, SampleTimer& timer, const EnergyCounter& counter,
                                double max_seconds) {
  EnergyReadings out;
  std::optional<std::uint64_t> previous = counter();
  if (!previous) return out;
  out.counter_available = true;
  const double started = timer.now_s();
  std::int64_t steps = 0;
  std::int64_t steps_at_first = 0;
  double first_s = 0.0;
  const std::int64_t block = std::max<std::int64_t>(1, v.steps_per_sample);
  while (out.updates < kEnergyUpdatesNeeded && timer.now_s() - started < max_seconds) {
    timer.start();
    run_block(v, block, timer);
    timer.stop(block);  // waits for the device: the counter then includes these steps
    steps += block;
    const std::optional<std::uint64_t> now = counter();
    if (!now || *now == *previous) continue;
    previous = now;
    if (!out.first_mj) {
      // Everything before the first change may hold energy from before the block.
      out.first_mj = now;
      steps_at_first = steps;
      first_s = timer.now_s();
      continue;
    }
    out.last_mj = now;
    ++out.updates;
    out.steps = steps - steps_at_first;
    out.seconds = timer.now_s() - first_s;
  }
  out.block_seconds = timer.now_s() - started;
  return out;
}

}  // namespace graphbench
