// Giving the device memory LibTorch's CUDA caching allocator keeps cached back to CUDA: before
// every capture and at the end of every case. The header is CUDA-free; without CUDA both are
// nothing.
//
// A destroyed graph's pool is not given back when the graph goes: releasing it only lets the
// allocator cudaFree its unused segments, which it does in emptyCache or when an allocation outside
// any capture finds no memory. An allocation inside a capture that finds none frees nothing cached
// (c10/cuda/CUDACachingAllocator.cpp, malloc: the last retry runs only while no capture is
// underway), so the pools of the graphs of earlier cases and what the eager steps left cached would
// stay on the device and make the capture fail with CUDA out of memory. torch.cuda.graph empties the
// cache before every capture for the same reason. See docs/design.md (the private pool).
#pragma once

#include "graphbench/core/base/non_copyable.h"

namespace graphbench {

// Waits for the current device, then gives back every cached block the allocator may free: the
// unused segments of the default pool and those of the graph pools no live graph uses. Does
// nothing while a capture of this process is underway on another thread (a CaptureMemoryScope
// alive): not every LibTorch allows emptying the cache then. Call it only where the process uses
// a CUDA device (it would create the device's context).
void release_cached_device_memory();

// Makes LibTorch's cuBLAS and cuBLASLt workspaces of the current stream, where it has none yet.
// LibTorch keeps one per handle and stream for the rest of the process
// (aten/src/ATen/cuda/CublasHandlePool.cpp); made by the first matmul inside a capture, it would
// come out of the graph's pool and keep the segment under it allocated after the graph is gone, so
// that the pool could never be given back. Call it on the capture stream before the capture begins.
void create_blas_workspaces();

// Alive from before a capture begins until it has ended (or was ended after a failure). Made, it
// first releases the cached memory (as above, unless another thread's capture is underway); while
// it is alive, release_cached_device_memory() on other threads does nothing.
class CaptureMemoryScope : NonCopyable {
 public:
  CaptureMemoryScope();
  ~CaptureMemoryScope();
};

}  // namespace graphbench
