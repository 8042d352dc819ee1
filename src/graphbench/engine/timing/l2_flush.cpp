#include "graphbench/engine/timing/l2_flush.h"

#include "graphbench/core/base/errors.h"

#include <algorithm>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

namespace graphbench {

L2Flusher::L2Flusher() {
#ifdef GRAPHBENCH_WITH_CUDA
  const std::int64_t l2_bytes = at::cuda::getCurrentDeviceProperties()->l2CacheSize;
  const std::int64_t bytes = std::max<std::int64_t>(2 * l2_bytes, std::int64_t{1} << 20);
  buffer_ = at::empty({bytes}, at::TensorOptions().dtype(at::kByte).device(at::kCUDA));
#else
  throw EngineError("a cold L2 cache can be measured on a CUDA device only: this graphbench was built without CUDA");
#endif
}

void L2Flusher::flush() {
  buffer_.zero_();
#ifdef GRAPHBENCH_WITH_CUDA
  // Without the wait the host would issue the next step while the flush still runs, and the
  // step's launch gaps would hide behind it.
  at::cuda::getCurrentCUDAStream().synchronize();
#endif
}

}  // namespace graphbench
