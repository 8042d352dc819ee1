// Gives the caching allocator's cached device memory back before every capture and after every case:
// an allocation inside a capture frees nothing cached (CUDACachingAllocator.cpp), so earlier pools
// would make it fail out of memory; torch.cuda.graph empties the cache too (docs/design.md).
#pragma once

#include "graphbench/core/base/non_copyable.h"

namespace graphbench {

// Syncs and empties the cache (not while another thread captures); only where the process uses CUDA.
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
