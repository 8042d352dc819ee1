// What the GPU is and how it runs: name, driver, CUDA and cuDNN versions, SM clocks (NVML,
// loaded at run time so that a machine without it still runs), and the measured copy bandwidth.
#pragma once

#include <optional>
#include <string>

namespace graphbench {

struct GpuInfo {
  std::string name;
  std::string driver_version;
  std::string cuda_runtime_version;
  std::string cudnn_version;
  int sm_count = 0;
  double memory_gib = 0.0;
  double sm_clock_max_mhz = 0.0;
};

// Information about the current CUDA device; nullopt in a CPU build or without a device.
std::optional<GpuInfo> current_gpu_info();

// The current SM clock of the current device (NVML), if it can be read.
std::optional<double> current_sm_clock_mhz();

// Device-to-device copy bandwidth in GB/s (bytes read plus bytes written, per second), measured on
// `bytes`-sized buffers. 0 in a CPU build.
double measure_copy_bandwidth_gbps(std::size_t bytes = std::size_t{256} << 20);

}  // namespace graphbench
