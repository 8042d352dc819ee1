// Where, when, on what and with what a run was measured: the environment block of every result
// file. Plain data, no LibTorch: env/ fills it in, report/ writes and reads it.
#pragma once

#include <string>

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
  int sm_count = 0;
  double gpu_memory_gib = 0.0;
  double sm_clock_max_mhz = 0.0;
  double copy_bandwidth_gbps = 0.0;  // measured once per run (device-to-device copy)
  std::string command_line;
  std::string suite;
  std::string config_path;
};

}  // namespace graphbench
