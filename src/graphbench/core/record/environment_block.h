// The environment block of every result file (struct Environment): where, when, on what and with
// what a run was measured. Plain data, no LibTorch: engine/env/environment.h fills it in, report/ writes and reads it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace graphbench {

struct Environment {
  int schema_version = 0;
  std::string tool_version;
  std::string date_utc;  // ISO 8601
  std::string host;
  std::string os;
  std::string git_commit;
  std::string build_type;
  std::string compiler;
  std::string libtorch_version;
  std::string device;  // cpu or cuda
  std::string gpu_name;
  std::string driver_version;
  std::string cuda_runtime_version;
  std::string cudnn_version;
  // Unknown or not measured (a CPU run): no value, written as null.
  std::optional<int> sm_count;
  std::optional<double> gpu_memory_gib;
  std::optional<double> sm_clock_max_mhz;
  std::optional<double> copy_bandwidth_gbps;  // measured once per run (device-to-device copy)
  // The host CPU, as Google Benchmark's context reports it (--format gbench).
  std::optional<int> cpu_count;
  std::optional<double> cpu_mhz;
  std::optional<bool> cpu_scaling_enabled;  // a frequency governor other than "performance"
  std::vector<double> load_avg;             // 1, 5 and 15 minutes, when the run started
  std::string command_line;
  std::string suite;
  std::string config_path;
};

// "cuda NVIDIA H200", "cpu": the device as messages name it.
inline std::string device_text(const Environment& e) { return e.gpu_name.empty() ? e.device : e.device + " " + e.gpu_name; }

}  // namespace graphbench
