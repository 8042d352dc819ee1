// graphbench's command line, parsed and checked without LibTorch. Two programs share it:
// `graphbench`, the front, answers what needs no LibTorch (help, usage errors, a bad run option that
// needs no suite to tell (run_option_checks.h), compare, calibrate, report) in milliseconds and
// hands the rest to `graphbench-run` beside it, which loads LibTorch (half a second on a CPU build,
// seconds with CUDA) and runs workloads.
#pragma once

#include "options.h"

#include <functional>
#include <string>

namespace graphbench::cli {

// What only graphbench-run does.
struct LibTorchCommands {
  std::function<std::string()> version;
  std::function<int(const RunOptions&, const std::string& command_line)> run;
  std::function<int(const std::string& configs_dir)> list;
};

// Parses and runs the command line; `torch` null: the front. Returns the exit code.
int run_cli(int argc, char** argv, const LibTorchCommands* torch);

}  // namespace graphbench::cli
