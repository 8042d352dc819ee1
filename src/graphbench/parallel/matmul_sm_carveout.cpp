#include "graphbench/parallel/matmul_sm_carveout.h"

#include <ATen/Context.h>
#include <torch/version.h>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif
#include <fmt/format.h>

#include <cstdint>

// LibTorch 2.7 brought the carveout (at::Context::_setSMCarveout_EXPERIMENTAL).
#if defined(GRAPHBENCH_WITH_CUDA) && (TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 7))
#define GRAPHBENCH_HAS_SM_CARVEOUT 1
#endif

namespace graphbench::parallel {

std::string matmul_sm_carveout_unavailable(const at::Device& device, int multiprocessors) {
  if (!device.is_cuda()) {
    return fmt::format("leaving {} multiprocessors to the all-reduce needs a GPU; this run is on the {}", multiprocessors,
                       device.str());
  }
#ifdef GRAPHBENCH_HAS_SM_CARVEOUT
  const int count = at::cuda::getDeviceProperties(device.index())->multiProcessorCount;
  if (multiprocessors >= count) {
    return fmt::format("the GPU has {} multiprocessors: at most {} can be left to the all-reduce, not {}", count,
                       count - 1, multiprocessors);
  }
  return "";
#else
  return fmt::format("leaving {} multiprocessors to the all-reduce needs LibTorch 2.7 or newer built with CUDA; "
                     "this is LibTorch {}",
                     multiprocessors, TORCH_VERSION);
#endif
}

#ifdef GRAPHBENCH_HAS_SM_CARVEOUT
ScopedMatmulSmCarveout::ScopedMatmulSmCarveout(int multiprocessors) {
  if (multiprocessors <= 0) return;
  at::Context& context = at::globalContext();
  previous_backend_ = static_cast<int>(context.blasPreferredBackend());
  previous_carveout_ = context._SMCarveout_EXPERIMENTAL();
  context.setBlasPreferredBackend(at::BlasBackend::Cublaslt);
  context._setSMCarveout_EXPERIMENTAL(multiprocessors);
  active_ = true;
}

ScopedMatmulSmCarveout::~ScopedMatmulSmCarveout() {
  if (!active_) return;
  at::Context& context = at::globalContext();
  context._setSMCarveout_EXPERIMENTAL(previous_carveout_);
  context.setBlasPreferredBackend(static_cast<at::BlasBackend>(previous_backend_));
}
#else
// Never asked for: matmul_sm_carveout_unavailable refuses every carveout here.
ScopedMatmulSmCarveout::ScopedMatmulSmCarveout(int /*multiprocessors*/) {}
ScopedMatmulSmCarveout::~ScopedMatmulSmCarveout() = default;
#endif

}  // namespace graphbench::parallel
