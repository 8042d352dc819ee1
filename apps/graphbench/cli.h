// graphbench's command line, parsed and checked without LibTorch. Two programs share it:
// `graphbench`, the front, answers what needs no LibTorch (help, usage errors, a bad run option or
// suite (run_option_checks.h, suite_selection.h: suites are checked against the workload catalog,
// bench/catalog/), list, compare, calibrate, report) in milliseconds and hands the rest to
// `graphbench-run` beside it, which loads LibTorch (half a second on a CPU build,
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
};

// Parses and runs the command line; `torch` null: the front. Returns the exit code.
int run_cli(int argc, char** argv, const LibTorchCommands* torch);

}  // namespace graphbench::cli
