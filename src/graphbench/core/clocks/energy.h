// Energy per step from NVML's total energy counter (docs/measuring.md, "Energy per step"). The
// counter (millijoules) changes only every few tens of milliseconds, so a difference of two readings
// is off by up to one update at each end: the energy block takes its first and last readings where
// the counter changed, and a figure is kept only across kEnergyUpdatesNeeded updates or more (the
// error left then stays well under 5%).
#pragma once

#include "graphbench/core/record/result_record.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace graphbench {

inline constexpr int kEnergyUpdatesNeeded = 20;

// What the energy block saw: the counter where it first and last changed during the block, the
// steps run and the seconds that passed between those two changes, and how many times it changed
// in between (after the first).
struct EnergyReadings {
  bool counter_available = false;  // the counter could be read at all
  std::string not_run;             // why the block did not run ("" when it ran)
  std::optional<std::uint64_t> first_mj;
  std::optional<std::uint64_t> last_mj;
  std::int64_t steps = 0;
  double seconds = 0.0;
  int updates = 0;
  double block_seconds = 0.0;  // the whole block, for the message when it is too short
};

// Joules per step, or the reason there is none: counter unavailable, the block not run, fewer than
// kEnergyUpdatesNeeded updates (too short to resolve), a counter that went backwards.
EnergyPerStep energy_per_step(const EnergyReadings& readings);

// Sets `vs_eager` on every record of one case with an energy figure: its joules per step over
// the eager variant's (below 1: the variant saves energy). Nothing without eager's figure.
void fill_energy_vs_eager(const std::vector<ResultRecord*>& case_records);

}  // namespace graphbench
