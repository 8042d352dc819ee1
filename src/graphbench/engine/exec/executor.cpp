#include "graphbench/engine/exec/executor.h"

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

namespace graphbench {

std::unique_ptr<Executor> make_executor(ExecutorKind kind, Engine& engine, const Policy& policy,
                                        const ExecutorOptions& options) {
  switch (kind) {
    case ExecutorKind::kEager: return make_eager_executor(engine);
    case ExecutorKind::kStatic: return make_static_executor(engine, policy, options);
    case ExecutorKind::kGraph: return make_graph_executor(engine, policy, options);
  }
  return nullptr;
}

bool cuda_graphs_available() {
#ifdef GRAPHBENCH_WITH_CUDA
  return at::cuda::is_available();
#else
  return false;
#endif
}

}  // namespace graphbench
