// The environment block of every result file: where, when, on what and with what it was measured.
#pragma once

#include "graphbench/core/record/environment_block.h"

#include <string>

namespace graphbench {

struct EnvironmentRequest {
  bool cuda = false;               // the run uses the GPU
  bool measure_bandwidth = false;  // measure the device's copy bandwidth (once per run)
  std::string command_line;
  std::string suite;
  std::string config_path;
};

Environment collect_environment(const EnvironmentRequest& request);

}  // namespace graphbench
