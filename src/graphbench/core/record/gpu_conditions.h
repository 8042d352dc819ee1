// How the GPU ran while a variant was sampled, and what a step cost in energy, read through NVML
// (engine/env/gpu_info.h). Every field is absent where it could not be read.
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
  std::optional<std::uint64_t> throttle_mask;  // NVML's throttle reasons (core/clocks/conditions_log.h)
};

// One quantity read just before a variant's first sample and just after its last.
struct StartEnd {
  std::optional<double> start;
  std::optional<double> end;
  bool any() const { return start.has_value() || end.has_value(); }
};

// The GPU's state around a variant's samples (the SM clock's start and end are the record's own).
struct GpuConditions {
  StartEnd memory_clock_mhz;
  StartEnd temperature_c;
  StartEnd power_w;
  std::optional<double> sm_clock_mean_mhz;       // read after each sample: the clock it ran at
  std::optional<double> sm_clock_reference_mhz;  // under load: the applications clock, else the maximum
  // The throttle reasons seen after any of its samples, "idle" left out (conditions_log.h).
  std::optional<std::vector<std::string>> throttle_reasons;
};

// Energy per step from NVML's energy counter around a block of the variant's steps run on their own.
struct EnergyPerStep {
  std::optional<double> joules_per_step;  // absent: `unavailable` says why
  std::optional<double> joules;           // the counter's difference over the block
  std::int64_t steps = 0;                 // steps of the block
  double seconds = 0.0;                   // the block's wall time
  std::optional<double> update_interval_ms;  // the counter's mean update interval, seen twice at least
  std::optional<double> vs_eager;            // over eager's joules per step (below 1: saves energy)
  std::string unavailable;
};

}  // namespace graphbench
