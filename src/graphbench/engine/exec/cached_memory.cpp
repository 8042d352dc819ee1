#include "graphbench/engine/exec/cached_memory.h"

#include <mutex>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <torch/version.h>
// LibTorch 2.9 and later keep a cuBLASLt workspace per handle and stream too.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 9)
#define GRAPHBENCH_HAS_BLASLT_WORKSPACES 1
#endif
#endif

namespace graphbench {

namespace {

// The captures of this process underway now (ranks as threads of one process capture at once).
struct Captures {
  std::mutex mutex;
  int underway = 0;
};

Captures& captures() {
  static Captures instance;
  return instance;
}

// With captures().mutex held.
void release_if_no_capture() {
#ifdef GRAPHBENCH_WITH_CUDA
  if (captures().underway > 0) return;
  c10::cuda::device_synchronize();
  c10::cuda::CUDACachingAllocator::emptyCache();
#endif
}

}  // namespace

void release_cached_device_memory() {
  std::lock_guard<std::mutex> lock(captures().mutex);
  release_if_no_capture();
}

void create_blas_workspaces() {
#ifdef GRAPHBENCH_WITH_CUDA
  (void)at::cuda::getCurrentCUDABlasHandle();  // sets the handle's workspace for this stream, made if new
#ifdef GRAPHBENCH_HAS_BLASLT_WORKSPACES
  (void)at::cuda::getCUDABlasLtWorkspace();
#endif
#endif
}

CaptureMemoryScope::CaptureMemoryScope() {
  std::lock_guard<std::mutex> lock(captures().mutex);
  release_if_no_capture();
  ++captures().underway;
}

CaptureMemoryScope::~CaptureMemoryScope() {
  std::lock_guard<std::mutex> lock(captures().mutex);
  --captures().underway;
}

}  // namespace graphbench
