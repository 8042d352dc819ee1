// The energy block of a variant (docs/measuring.md, "Energy per step"): after the interleaved
// samples, the variant runs alone in blocks of its steps per sample, reading NVML's energy counter
// after each block until it has updated kEnergyUpdatesNeeded times past its first change or
// `max_seconds` pass. Not around the samples themselves: a counter updated every few tens of ms
// would mix the energy of neighbouring variants' millisecond samples.
#pragma once

#include "graphbench/core/clocks/energy.h"
#include "graphbench/core/sampling/sampler.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace graphbench {

// The longest a variant's energy block runs: 20 updates of a counter updated every 100 ms, with
// room to spare; a counter slower than that gives no figure ("too short to resolve").
inline constexpr double kEnergyBlockMaxSeconds = 5.0;

// The counter in millijoules, or nullopt where it cannot be read.
using EnergyCounter = std::function<std::optional<std::uint64_t>()>;

// Runs `v` (its steps_per_sample calibrated) until the counter resolves its energy or
// `max_seconds` pass; `timer` waits for the device at the end of each block. An exception from a
// step propagates.
EnergyReadings run_energy_block(TimedVariant& v, SampleTimer& timer, const EnergyCounter& counter,
                                double max_seconds);

}  // namespace graphbench
