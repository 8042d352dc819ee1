// `graphbench-run`: the whole command line with LibTorch (cli.h); the front starts it.
#include "cli.h"
#include "run_command.h"

#include "graphbench/core/base/version.h"
#include "graphbench/engine/env/build_info.h"

#include <fmt/format.h>

int main(int argc, char** argv) {
  const graphbench::cli::LibTorchCommands torch{
      [] {
        const auto& b = graphbench::build_info();
        return fmt::format("graphbench {} (LibTorch {}, {}, {} build)", graphbench::kToolVersion, b.libtorch_version,
                           b.with_cuda ? "CUDA" : "CPU only", b.build_type);
      },
      graphbench::cli::run_command};
  return graphbench::cli::run_cli(argc, argv, &torch);
}
