// How the GPU ran while a variant was sampled, and what a step cost in energy: plain data read
// through NVML on a GPU (engine/env/gpu_info.h), judged by clocks/ and written by report/. Every field
// is absent where it could not be read (a CPU run, no NVML, a counter the GPU does not have).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// One reading of the GPU (engine/env/gpu_info.h); each field absent where it could not be read.
struct GpuReading {
  std::optional<double> sm_clock_mhz;
  std::optional<double> memory_clock_mhz;
  std::optional<double> temperature_c;
  std::optional<double> power_w;
  std::optional<std::uint64_t> throttle_mask;  // NVML's throttle reasons (core/clocks/throttle_reasons.h)
};

// One quantity read just before a variant's first sample and just after its last.
struct StartEnd {
  std::optional<double> start;
  std::optional<double> end;
  bool any() const { return start.has_value() || end.has_value(); }
};

// The GPU's state around a variant's samples (the SM clock itself is the record's
// sm_clock_start_mhz / sm_clock_end_mhz, kept where older files have it).
struct GpuConditions {
  StartEnd memory_clock_mhz;
  StartEnd temperature_c;
  StartEnd power_w;
  // The mean of the SM clock read after each of the variant's samples: the clock it ran at.
  std::optional<double> sm_clock_mean_mhz;
  // What the SM clock should be under load: the applications clock, else the maximum.
  std::optional<double> sm_clock_reference_mhz;
  // NVML's clock throttle (event) reasons seen after any of its samples, "idle" left out
  // (core/clocks/throttle_reasons.h names them); absent when they could not be read.
  std::optional<std::vector<std::string>> throttle_reasons;
};

// Energy per step from NVML's total energy counter, read around a block of the variant's steps
// run back to back on their own (docs/measuring.md, "Energy per step").
struct EnergyPerStep {
  std::optional<double> joules_per_step;  // absent: `unavailable` says why
  std::optional<double> joules;           // the counter's difference over the block
  std::int64_t steps = 0;                 // steps of the block
  double seconds = 0.0;                   // the block's wall time
  // The counter's mean update interval seen during the block, when it changed at least twice.
  std::optional<double> update_interval_ms;
  // The variant's joules per step over eager's of the same case (below 1: it saves energy).
  std::optional<double> vs_eager;
  std::string unavailable;
};

}  // namespace graphbench
