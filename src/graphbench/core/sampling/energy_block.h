// The energy block of a variant (docs/measuring.md, "Energy per step"): after the interleaved
// samples, the variant runs alone, back to back in blocks of its steps per sample, and NVML's
// energy counter is read after each block until it has updated kEnergyUpdatesNeeded times past
// its first change (core/clocks/energy.h) or `max_seconds` have passed.
//
// Why not read the counter around the timed samples themselves: a sample lasts about a
// millisecond and the samples of the variants alternate, while the counter updates every few tens
// of milliseconds; each update would hold the energy of the neighbours' samples too, and every
// variant would read about the same mean power.
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
