#include "graphbench/engine/env/build_info.h"

#include <torch/version.h>

#ifndef GRAPHBENCH_BUILD_TYPE
#define GRAPHBENCH_BUILD_TYPE "unknown"
#endif
#ifndef GRAPHBENCH_COMPILER
#define GRAPHBENCH_COMPILER "unknown"
#endif
#ifndef GRAPHBENCH_SOURCE_DIR
#define GRAPHBENCH_SOURCE_DIR ""
#endif

namespace graphbench {

const BuildInfo& build_info() {
  static const BuildInfo info = [] {
    BuildInfo b;
    b.build_type = GRAPHBENCH_BUILD_TYPE;
    b.compiler = GRAPHBENCH_COMPILER;
    b.source_dir = GRAPHBENCH_SOURCE_DIR;
    b.libtorch_version = TORCH_VERSION;
#ifdef GRAPHBENCH_WITH_CUDA
    b.with_cuda = true;
#endif
    return b;
  }();
  return info;
}

}  // namespace graphbench
