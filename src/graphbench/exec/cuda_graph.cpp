#include "graphbench/exec/cuda_graph.h"

#include "graphbench/core/errors.h"
#include "graphbench/exec/warm_up.h"

#include <fmt/format.h>

#include <chrono>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#endif

namespace graphbench {

#ifdef GRAPHBENCH_WITH_CUDA

struct CapturedGraph::Impl {
  at::cuda::CUDAGraph graph;
  double capture_ms = 0.0;
};

namespace {

// Makes `waiter` wait for everything queued on `producer` so far.
void order_after(const c10::cuda::CUDAStream& waiter, const c10::cuda::CUDAStream& producer) {
  at::cuda::CUDAEvent event;
  event.record(producer);
  event.block(waiter);
}

// Ends a capture that failed part-way, whatever state it is in, and clears the error it left, so
// that the rest of the run can go on (ANCHORS.md: never leave a stream capturing).
void end_failed_capture(at::cuda::CUDAGraph& graph, cudaStream_t stream) {
  try {
    graph.capture_end();
  } catch (const std::exception&) {
    // The capture was invalidated; end it by hand below.
  }
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) == cudaSuccess && status != cudaStreamCaptureStatusNone) {
    cudaGraph_t partial = nullptr;
    cudaStreamEndCapture(stream, &partial);
    if (partial != nullptr) cudaGraphDestroy(partial);
  }
  (void)cudaGetLastError();
}

}  // namespace

std::unique_ptr<CapturedGraph> CapturedGraph::capture(SlotBinding& binding, int warmup_steps, Counters& counters) {
  auto impl = std::make_unique<Impl>();
  const std::string& program = binding.compiled().program().name();
  const auto caller = at::cuda::getCurrentCUDAStream();

  // Warm-up on a side stream, so that cuBLAS/cuDNN handles and workspaces are created for a
  // non-default stream before capture (pytorch/pytorch#99397).
  const auto side = at::cuda::getStreamFromPool();
  order_after(side, caller);
  {
    c10::cuda::CUDAStreamGuard guard(side);
    warm_up(binding, warmup_steps, counters);
  }
  order_after(caller, side);

  const auto capture_stream = at::cuda::getStreamFromPool();
  order_after(capture_stream, caller);
  capture_stream.synchronize();
  const auto start = std::chrono::steady_clock::now();
  {
    c10::cuda::CUDAStreamGuard guard(capture_stream);
    try {
      impl->graph.capture_begin({0, 0}, cudaStreamCaptureModeThreadLocal);
      binding.run();
    } catch (const std::exception& e) {
      end_failed_capture(impl->graph, capture_stream.stream());
      ++counters.capture_failures;
      throw CaptureError(fmt::format("capture of program {} failed: {}", program, e.what()));
    }
    try {
      impl->graph.capture_end();
    } catch (const std::exception& e) {
      end_failed_capture(impl->graph, capture_stream.stream());
      ++counters.capture_failures;
      throw CaptureError(fmt::format("capture of program {} failed at capture_end: {}", program, e.what()));
    }
  }
  capture_stream.synchronize();
  impl->capture_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  order_after(caller, capture_stream);
  ++counters.captures;
  binding.check_fixed_pointers();
  return std::unique_ptr<CapturedGraph>(new CapturedGraph(std::move(impl)));
}

void CapturedGraph::replay() { impl_->graph.replay(); }

double CapturedGraph::capture_ms() const { return impl_->capture_ms; }

#else  // no CUDA in this build

struct CapturedGraph::Impl {};

std::unique_ptr<CapturedGraph> CapturedGraph::capture(SlotBinding& binding, int, Counters&) {
  throw EngineError(fmt::format(
      "cannot capture program {}: this graphbench was built against a LibTorch without CUDA",
      binding.compiled().program().name()));
}

void CapturedGraph::replay() {}

double CapturedGraph::capture_ms() const { return 0.0; }

#endif

CapturedGraph::CapturedGraph(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CapturedGraph::~CapturedGraph() = default;

}  // namespace graphbench
