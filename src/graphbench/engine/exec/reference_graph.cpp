#include "graphbench/engine/exec/reference_graph.h"

#include "graphbench/core/base/elapsed.h"
#include "graphbench/core/base/errors.h"
#include "graphbench/engine/exec/cached_memory.h"
#include "graphbench/engine/exec/graph_inspect.h"
#include "graphbench/engine/exec/shared_graph_pool.h"

#include <chrono>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#endif

namespace graphbench {

struct ReferenceGraph::Impl {
#ifdef GRAPHBENCH_WITH_CUDA
  // Kept after capture where LibTorch can (make_inspectable_graph), only so that its kernel nodes
  // can be counted; the capture itself is the tutorial's.
  std::unique_ptr<at::cuda::CUDAGraph> graph = make_inspectable_graph();
#endif
  double capture_ms = 0.0;
  double warmup_ms = 0.0;
  GraphFacts facts;
};

#ifdef GRAPHBENCH_WITH_CUDA

ReferenceGraph::ReferenceGraph(const std::function<void()>& step, int warmup_iterations,
                               const std::function<void()>& before_capture)
    : impl_(std::make_unique<Impl>()) {
  c10::cuda::device_synchronize();
  const auto warmup_start = std::chrono::steady_clock::now();
  {
    at::cuda::CUDAStream warmup_stream = at::cuda::getStreamFromPool();
    c10::cuda::CUDAStreamGuard guard(warmup_stream);
    for (int i = 0; i < warmup_iterations; ++i) step();
    if (before_capture) before_capture();
  }
  c10::cuda::device_synchronize();
  impl_->warmup_ms = ms_since(warmup_start);
  at::cuda::CUDAStream capture_stream = at::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard guard(capture_stream);
    create_blas_workspaces();  // outside the graph's pool (engine/exec/cached_memory.h)
  }
  const CaptureMemoryScope memory;  // what is cached goes back before the capture (engine/exec/cached_memory.h)
  const auto start = std::chrono::steady_clock::now();
  {
    c10::cuda::CUDAStreamGuard guard(capture_stream);
    if (SharedGraphPool::active()) {
      impl_->graph->capture_begin(pool_for_capture());
    } else {
      impl_->graph->capture_begin();
    }
    step();
    impl_->graph->capture_end();
    instantiate_kept(*impl_->graph);
  }
  c10::cuda::device_synchronize();
  impl_->capture_ms = ms_since(start);
  impl_->facts = inspect_graph(*impl_->graph, impl_->graph->pool(), c10::cuda::current_device());
}

void ReferenceGraph::replay() { impl_->graph->replay(); }

#else

ReferenceGraph::ReferenceGraph(const std::function<void()>&, int, const std::function<void()>&) {
  throw EngineError("the reference+graph variant needs a CUDA build of graphbench");
}
void ReferenceGraph::replay() {}

#endif

double ReferenceGraph::capture_ms() const { return impl_->capture_ms; }
double ReferenceGraph::warmup_ms() const { return impl_->warmup_ms; }
const GraphFacts& ReferenceGraph::facts() const { return impl_->facts; }
ReferenceGraph::~ReferenceGraph() = default;

}  // namespace graphbench
