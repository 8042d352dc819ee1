// For tests tagged [cuda]: they run on the GPU machine and are skipped, with a message that says
// so, where there is no GPU (Catch2 2.x has no SKIP macro; 3.x reports a real skip).
#pragma once

#include "graphbench/exec/executor.h"
#include "support/catch.h"

#if GRAPHBENCH_CATCH2_MAJOR >= 3 && defined(SKIP)
#define GRAPHBENCH_REQUIRE_CUDA()                                                         \
  do {                                                                                    \
    if (!graphbench::cuda_graphs_available()) SKIP("no CUDA device or a CPU-only build"); \
  } while (0)
#else
#define GRAPHBENCH_REQUIRE_CUDA()                                                    \
  do {                                                                               \
    if (!graphbench::cuda_graphs_available()) {                                      \
      WARN("skipped: this [cuda] test needs a CUDA device and a CUDA build of graphbench"); \
      return;                                                                        \
    }                                                                                \
  } while (0)
#endif
