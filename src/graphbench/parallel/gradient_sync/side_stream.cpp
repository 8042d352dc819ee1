#include "graphbench/parallel/gradient_sync/side_stream.h"

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include <optional>
#endif

namespace graphbench::parallel {

#ifdef GRAPHBENCH_WITH_CUDA

struct SideStream::Impl {
  at::Device device = at::kCPU;
  // Made at the first fork, on the device of the first use (outside any capture: a step's first
  // run is eager, or the graph executor's warm-up).
  std::optional<c10::cuda::CUDAStream> stream;
  // Reused: a stream wait takes the event's latest record at the time of the wait.
  at::cuda::CUDAEvent forked;
  at::cuda::CUDAEvent joined;
};

struct SideStream::Scope::Guard {
  explicit Guard(const c10::cuda::CUDAStream& stream) : guard(stream) {}
  c10::cuda::CUDAStreamGuard guard;
};

bool is_capturing(at::Device device) {
  if (!device.is_cuda()) return false;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(c10::cuda::getCurrentCUDAStream(device.index()).stream(), &status) != cudaSuccess) {
    return false;
  }
  return status != cudaStreamCaptureStatusNone;
}

SideStream::SideStream(at::Device device) : impl_(std::make_unique<Impl>()) { impl_->device = device; }

SideStream::Scope SideStream::fork() {
  if (!impl_->device.is_cuda()) return Scope(nullptr);
  const auto index = impl_->device.index();
  if (!impl_->stream) impl_->stream = c10::cuda::getStreamFromPool(/*isHighPriority=*/true, index);
  impl_->forked.record(c10::cuda::getCurrentCUDAStream(index));
  impl_->forked.block(*impl_->stream);
  return Scope(std::make_unique<Scope::Guard>(*impl_->stream));
}

void SideStream::join() {
  if (!impl_->device.is_cuda() || !impl_->stream) return;
  impl_->joined.record(*impl_->stream);
  impl_->joined.block(c10::cuda::getCurrentCUDAStream(impl_->device.index()));
}

#else  // no CUDA in this build: CPU tensors only, nothing to order

bool is_capturing(at::Device) { return false; }

struct SideStream::Impl {};
struct SideStream::Scope::Guard {};

SideStream::SideStream(at::Device) : impl_(std::make_unique<Impl>()) {}
SideStream::Scope SideStream::fork() { return Scope(nullptr); }
void SideStream::join() {}

#endif

SideStream::~SideStream() = default;
SideStream::Scope::Scope(std::unique_ptr<Guard> guard) : guard_(std::move(guard)) {}
SideStream::Scope::Scope(Scope&&) noexcept = default;
SideStream::Scope::~Scope() = default;

}  // namespace graphbench::parallel
