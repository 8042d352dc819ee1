// For tests tagged [cuda]: they run on the GPU machine and are skipped, with the reason, where
// there is no GPU (see support/skip.h).
#pragma once

#include "graphbench/engine/exec/executor.h"
#include "support/skip.h"

#define GRAPHBENCH_REQUIRE_CUDA()                                                                   \
  do {                                                                                              \
    if (!graphbench::cuda_graphs_available()) GRAPHBENCH_SKIP("needs a CUDA device and a CUDA build"); \
  } while (0)
