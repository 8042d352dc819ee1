// Gives the device memory LibTorch's caching allocator keeps cached back to CUDA: before every
// capture and at the end of every case (CUDA-free header; without CUDA, nothing). Why: an
// allocation inside a capture that finds no memory frees nothing cached (CUDACachingAllocator.cpp,
// malloc), so earlier graphs' released pools and eager steps' blocks would make the capture fail
// out of memory; torch.cuda.graph empties the cache before every capture too (docs/design.md).
#pragma once

#include "graphbench/core/base/non_copyable.h"

namespace graphbench {

// Syncs the device and empties the cache; nothing while another thread's capture is underway (a
// CaptureMemoryScope alive). Only where the process uses CUDA (it would create the context).
void release_cached_device_memory();

// Makes the current stream's cuBLAS(Lt) workspaces before a capture: kept for the process
// (CublasHandlePool.cpp), one made inside a capture would pin the graph's pool for good.
void create_blas_workspaces();

// Alive around a capture: releases the cached memory when made, and blocks other threads' release.
class CaptureMemoryScope : NonCopyable {
 public:
  CaptureMemoryScope();
  ~CaptureMemoryScope();
};

}  // namespace graphbench
