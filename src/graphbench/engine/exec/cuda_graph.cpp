#include "graphbench/engine/exec/cuda_graph.h"

#include "graphbench/core/base/elapsed.h"
#include "graphbench/core/base/errors.h"
#include "graphbench/engine/exec/cached_memory.h"
#include "graphbench/engine/exec/error_text.h"
#include "graphbench/engine/exec/failed_op_trace.h"
#include "graphbench/engine/exec/graph_inspect.h"
#include "graphbench/engine/exec/shared_graph_pool.h"
#include "graphbench/engine/exec/warm_up.h"

#include <fmt/format.h>

#include <chrono>
#include <mutex>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/version.h>
#include <cuda_runtime_api.h>
// LibTorch 2.11 (the GPU machine's) and later: the allocator calls end_failed_capture makes.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 11)
#define GRAPHBENCH_CAN_END_POOL_ALLOCATION 1
#include <ATen/core/CachingHostAllocator.h>
#endif
#endif

namespace graphbench {

#ifdef GRAPHBENCH_WITH_CUDA

using PoolId = decltype(at::cuda::graph_pool_handle());

struct CapturedGraph::Impl {
  // Kept after capture where LibTorch can, so that its kernel nodes can be counted.
  std::unique_ptr<at::cuda::CUDAGraph> graph = make_inspectable_graph();
  // The graph's private memory pool, named by us so that a failed capture can be ended in the
  // allocators too (end_failed_capture), and so that its size can be read.
  // Or the SharedGraphPool alive in this thread.
  PoolId pool = pool_for_capture();
  double capture_ms = 0.0;
  double warmup_ms = 0.0;
  GraphFacts facts;
};

namespace {

// Makes `waiter` wait for everything queued on `producer` so far.
void order_after(const c10::cuda::CUDAStream& waiter, const c10::cuda::CUDAStream& producer) {
  at::cuda::CUDAEvent event;
  event.record(producer);
  event.block(waiter);
}

// Ends a capture that failed part-way, whatever its state, and clears its error: the run goes on.
void end_failed_capture(at::cuda::CUDAGraph& graph, const PoolId& pool, const c10::cuda::CUDAStream& stream) {
  try {
    graph.capture_end();
  } catch (const std::exception&) {
    // The capture was invalidated; end it by hand below.
  }
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream.stream(), &status) == cudaSuccess && status != cudaStreamCaptureStatusNone) {
    cudaGraph_t partial = nullptr;
    cudaStreamEndCapture(stream.stream(), &partial);
    if (partial != nullptr) cudaGraphDestroy(partial);
  }
  (void)cudaGetLastError();
#ifdef GRAPHBENCH_CAN_END_POOL_ALLOCATION
  // CUDAGraph::capture_end throws on an invalidated capture before it tells the caching allocators
  // that the capture is over. Left so, they believe a capture is underway for good: the device
  // allocator stops recycling blocks used on several streams (a leak for the rest of the run), and
  // both keep calling a filter bound to the destroyed CUDAGraph. End the pool's capture allocation
  // here (it throws when capture_end got that far: nothing to do then) and release the pool, as
  // CUDAGraph::reset() does only after a successful capture.
  bool was_allocating = false;
  try {
    c10::cuda::CUDACachingAllocator::endAllocateToPool(stream.device_index(), pool);
    was_allocating = true;
  } catch (const std::exception&) {
  }
  try {
    at::getHostAllocator(at::kCUDA)->end_allocate_to_pool(pool);
  } catch (const std::exception&) {
  }
  if (was_allocating) {
    try {
      c10::cuda::CUDACachingAllocator::releasePool(stream.device_index(), pool);
      at::getHostAllocator(at::kCUDA)->release_pool(pool);
    } catch (const std::exception&) {
    }
  }
#endif
}

// CUDA's sync-debug mode at "error" for its lifetime: an op that syncs throws before it reaches CUDA,
// rather than invalidating the capture namelessly. Process-wide, and threads' captures overlap: the
// first sets it, the last puts the previous mode back.
class SyncDebugErrors : NonCopyable {
 public:
  SyncDebugErrors() {
    std::lock_guard<std::mutex> lock(shared().mutex);
    if (shared().holders++ == 0) {
      shared().previous = c10::cuda::warning_state().get_sync_debug_mode();
      c10::cuda::warning_state().set_sync_debug_mode(c10::cuda::SyncDebugMode::L_ERROR);
    }
  }
  ~SyncDebugErrors() {
    std::lock_guard<std::mutex> lock(shared().mutex);
    if (--shared().holders == 0) c10::cuda::warning_state().set_sync_debug_mode(shared().previous);
  }

 private:
  struct Shared {
    std::mutex mutex;
    int holders = 0;
    c10::cuda::SyncDebugMode previous = c10::cuda::SyncDebugMode::L_DISABLED;
  };
  static Shared& shared() {
    static Shared instance;
    return instance;
  }
};

// "called a synchronizing CUDA operation (in aten::_local_scalar_dense, inside aten::item)"
std::string capture_failure(const std::exception& error, const FailedOpTrace& trace) {
  const std::string where = trace.describe();
  return where.empty() ? error_text(error) : fmt::format("{} ({})", error_text(error), where);
}

// Warm-up on a side stream, so that cuBLAS/cuDNN handles and workspaces are created for a
// non-default stream before capture (pytorch/pytorch#99397). Returns its time; `caller` waits for it.
double warm_up_on_side_stream(SlotBinding& binding, int warmup_steps, Counters& counters,
                              const c10::cuda::CUDAStream& caller) {
  const auto side = at::cuda::getStreamFromPool();
  order_after(side, caller);
  C10_CUDA_CHECK(cudaStreamSynchronize(side.stream()));
  const auto warmup_start = std::chrono::steady_clock::now();
  {
    c10::cuda::CUDAStreamGuard guard(side);
    warm_up(binding, warmup_steps, counters);
  }
  C10_CUDA_CHECK(cudaStreamSynchronize(side.stream()));  // for the clock; the capture waits for it anyway
  const double ms = ms_since(warmup_start);
  order_after(caller, side);
  return ms;
}

// A CUDA build where the runtime finds no GPU: an EngineError before any CUDA call, as without CUDA.
void require_cuda_device(const std::string& program) {
  if (!at::cuda::is_available()) {
    throw EngineError(fmt::format("cannot capture program {}: the CUDA runtime finds no GPU on this machine", program));
  }
}

// A pool stream after `caller`, idle, its cuBLAS workspaces made outside any graph's pool. CUDA's own
// synchronize: another thread's capture may have the process-wide sync-debug mode at "error".
c10::cuda::CUDAStream capture_stream_after(const c10::cuda::CUDAStream& caller) {
  const auto stream = at::cuda::getStreamFromPool();
  order_after(stream, caller);
  C10_CUDA_CHECK(cudaStreamSynchronize(stream.stream()));
  c10::cuda::CUDAStreamGuard guard(stream);
  create_blas_workspaces();
  return stream;
}

// Captures `run` into `graph` (`pool`) on the current stream, `stream`, an op that syncs refused and
// named. On failure the capture is ended and `failed(at_end, error)` throws (at_end: at capture_end).
template <typename Failed>
void capture_into(at::cuda::CUDAGraph& graph, const PoolId& pool, const c10::cuda::CUDAStream& stream,
                  const std::function<void()>& run, const Failed& failed) {
  try {
    graph.capture_begin(pool, cudaStreamCaptureModeThreadLocal);
    FailedOpTrace trace;
    try {
      SyncDebugErrors no_sync;
      run();
    } catch (const std::exception& e) {
      throw CaptureError(capture_failure(e, trace));
    }
  } catch (const std::exception& e) {
    end_failed_capture(graph, pool, stream);
    failed(false, e);
  }
  try {
    graph.capture_end();
    instantiate_kept(graph);
  } catch (const std::exception& e) {
    end_failed_capture(graph, pool, stream);
    failed(true, e);
  }
}

}  // namespace

std::unique_ptr<CapturedGraph> CapturedGraph::capture(SlotBinding& binding, int warmup_steps, Counters& counters) {
  const std::string& program = binding.compiled().program().name();
  require_cuda_device(program);
  auto impl = std::make_unique<Impl>();
  const auto caller = at::cuda::getCurrentCUDAStream();
  impl->warmup_ms = warm_up_on_side_stream(binding, warmup_steps, counters, caller);
  const auto capture_stream = capture_stream_after(caller);
  // No memory freed inside the capture can be given back: what is cached goes back now (not timed).
  const CaptureMemoryScope memory;
  const auto start = std::chrono::steady_clock::now();
  {
    c10::cuda::CUDAStreamGuard guard(capture_stream);
    // The graph's own values into its private pool (no kernel: allocation only).
    capture_into(*impl->graph, impl->pool, capture_stream, [&] { binding.allocate_internal_buffers(); binding.run(); },
                 [&](bool at_end, const std::exception& e) {
                   binding.allocate_internal_buffers();  // out of the released pool, for a run without the graph
                   ++counters.capture_failures;
                   throw CaptureError(fmt::format("capture of program {} failed{}: {}", program,
                                                  at_end ? " at capture_end" : "", error_text(e)));
                 });
  }
  C10_CUDA_CHECK(cudaStreamSynchronize(capture_stream.stream()));  // CUDA's own call: see capture_stream_after
  impl->capture_ms = ms_since(start);
  order_after(caller, capture_stream);
  ++counters.captures;
  binding.check_fixed_pointers();
  impl->facts = inspect_graph(*impl->graph, impl->pool, capture_stream.device_index());
  return std::unique_ptr<CapturedGraph>(new CapturedGraph(std::move(impl)));
}

double CapturedGraph::warm_up_aside(SlotBinding& binding, int warmup_steps, Counters& counters) {
  require_cuda_device(binding.compiled().program().name());
  return warm_up_on_side_stream(binding, warmup_steps, counters, at::cuda::getCurrentCUDAStream());
}

CapturedGraph::Segments CapturedGraph::capture_segments(SegmentedStep& step, bool pool_per_graph, Counters& counters) {
  SlotBinding& binding = step.binding();
  const std::string& program = binding.compiled().program().name();
  require_cuda_device(program);
  const std::vector<Segment>& segments = step.segments();
  const auto caller = at::cuda::getCurrentCUDAStream();
  Segments out;
  out.graphs.resize(segments.size());

  std::optional<PoolId> shared_pool;
  if (!pool_per_graph) shared_pool = pool_for_capture();
  UndoPoint undo(binding);  // on the caller's stream, which the capture stream waits for
  const auto stream = capture_stream_after(caller);
  const CaptureMemoryScope memory;  // cached memory given back once, before the first segment
  try {
    c10::cuda::CUDAStreamGuard guard(stream);
    for (std::size_t s = 0; s < segments.size(); ++s) {
      const Segment& segment = segments[s];
      if (!segment.captured) {
        step.run_eager(s, counters);
        continue;
      }
      auto impl = std::make_unique<Impl>();
      if (shared_pool) impl->pool = *shared_pool;
      C10_CUDA_CHECK(cudaStreamSynchronize(stream.stream()));
      const auto start = std::chrono::steady_clock::now();
      std::size_t running = segment.first_op;
      // The values autograd tracks that it reads from eager segments, seen through their fixed buffers.
      SegmentedStep::CapturedView view(step, s);
      capture_into(
          *impl->graph, impl->pool, stream,
          [&] {
            binding.allocate_internal_buffers_of(segment.first_op, segment.end_op);
            binding.run_range(segment.first_op, segment.end_op, &running);
          },
          [&](bool at_end, const std::exception& e) {
            ++counters.capture_failures;
            const std::string where =
                at_end ? "at capture_end" : fmt::format("in {}", binding.compiled().ops()[running].label);
            throw SegmentCaptureError(fmt::format("capture of segment \"{}\" of program {} failed {}: {}", segment.name,
                                                  program, where, error_text(e)),
                                      at_end ? std::nullopt : std::optional<std::size_t>(running));
          });
      C10_CUDA_CHECK(cudaStreamSynchronize(stream.stream()));
      impl->capture_ms = ms_since(start);
      out.capture_ms += impl->capture_ms;
      ++counters.captures;
      impl->facts = inspect_graph(*impl->graph, impl->pool, stream.device_index());
      // Real values for the segments after it (not counted as a step's replay).
      impl->graph->replay();
      out.graphs[s] = std::unique_ptr<CapturedGraph>(new CapturedGraph(std::move(impl)));
    }
    step.end_step();
  } catch (...) {
    binding.allocate_internal_buffers();  // out of the released pools, for a run without the graphs
    step.end_step();
    (void)cudaStreamSynchronize(stream.stream());
    order_after(caller, stream);
    undo.restore();
    throw;
  }
  C10_CUDA_CHECK(cudaStreamSynchronize(stream.stream()));
  order_after(caller, stream);
  undo.restore();
  binding.check_fixed_pointers();
  return out;
}

void CapturedGraph::replay() { impl_->graph->replay(); }

#else  // no CUDA in this build

struct CapturedGraph::Impl {  // what the accessors below read, as with CUDA
  double capture_ms = 0.0;
  double warmup_ms = 0.0;
  GraphFacts facts;
};

namespace {
[[noreturn]] void throw_no_cuda(const SlotBinding& binding) {
  throw EngineError(fmt::format("cannot capture program {}: this graphbench was built against a LibTorch without CUDA",
                                binding.compiled().program().name()));
}
}  // namespace

std::unique_ptr<CapturedGraph> CapturedGraph::capture(SlotBinding& binding, int, Counters&) { throw_no_cuda(binding); }
double CapturedGraph::warm_up_aside(SlotBinding& binding, int, Counters&) { throw_no_cuda(binding); }
CapturedGraph::Segments CapturedGraph::capture_segments(SegmentedStep& step, bool, Counters&) {
  throw_no_cuda(step.binding());
}

void CapturedGraph::replay() {}

#endif

double CapturedGraph::capture_ms() const { return impl_->capture_ms; }
double CapturedGraph::warmup_ms() const { return impl_->warmup_ms; }
const GraphFacts& CapturedGraph::facts() const { return impl_->facts; }
CapturedGraph::CapturedGraph(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CapturedGraph::~CapturedGraph() = default;

}  // namespace graphbench
