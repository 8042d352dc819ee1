// What the GPU is and how it runs (NVML, loaded at run time), and the measured copy bandwidth.
#pragma once

#include "graphbench/core/record/environment_block.h"
#include "graphbench/core/record/gpu_conditions.h"

#include <cstdint>
#include <optional>

namespace graphbench {

// The current CUDA device's name, versions, SMs, memory and maximum SM clock in `env` (what reads as
// zero, NVML missing say, left without a value); nothing in a CPU build or without a device.
void fill_gpu_info(Environment& env);

// One NVML reading: `full` adds memory clock, temperature and power to the SM clock and throttle
// reasons (cheap enough for every sample). Unsupported queries leave their fields absent.
GpuReading read_gpu_state(bool full);

// The SM clock the device should run at under load: its applications clock, else its maximum.
std::optional<double> sm_clock_reference_mhz();

// NVML's energy counter in millijoules since the driver loaded (Volta and newer), where readable.
std::optional<std::uint64_t> read_energy_counter_mj();

// Device-to-device copy bandwidth in GB/s (read plus written) on `bytes` buffers; 0 in a CPU build.
double measure_copy_bandwidth_gbps(std::size_t bytes = std::size_t{256} << 20);

}  // namespace graphbench
