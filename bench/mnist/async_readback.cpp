#include "mnist/async_readback.h"

#include <ATen/core/grad_mode.h>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#endif

namespace graphbench::bench {

#ifdef GRAPHBENCH_WITH_CUDA
struct AsyncReadback::Event {
  at::cuda::CUDAEvent event;  // recorded after the copy; query() never blocks
};
#else
struct AsyncReadback::Event {};
#endif

AsyncReadback::AsyncReadback() = default;
AsyncReadback::~AsyncReadback() = default;

void AsyncReadback::start(const at::Tensor& scalar, std::int64_t tag) {
  at::NoGradGuard no_grad;
  tag_ = tag;
  busy_ = true;
#ifdef GRAPHBENCH_WITH_CUDA
  if (scalar.is_cuda()) {
    if (!host_.defined() || host_.scalar_type() != scalar.scalar_type() || !host_.is_pinned()) {
      host_ = at::empty({}, at::TensorOptions().dtype(scalar.scalar_type()).pinned_memory(true));
    }
    host_.copy_(scalar, /*non_blocking=*/true);
    if (!event_) event_ = std::make_unique<Event>();
    event_->event.record(at::cuda::getCurrentCUDAStream(scalar.device().index()));
    return;
  }
#endif
  host_ = scalar.detach().to(at::kCPU).clone();
  event_.reset();
}

std::optional<AsyncReadback::Landed> AsyncReadback::poll() {
  if (!busy_) return std::nullopt;
#ifdef GRAPHBENCH_WITH_CUDA
  if (event_ && !event_->event.query()) return std::nullopt;
#endif
  busy_ = false;
  return Landed{host_.item<double>(), tag_};
}

}  // namespace graphbench::bench
