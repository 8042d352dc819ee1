// The tutorial's capture recipe, written as the LibTorch CUDA-graph tutorial writes it
// (pytorch/tutorials, advanced_source/cpp_cuda_graphs): warm-up iterations on a pool stream, then at::cuda::CUDAGraph around
// the same step function, then replay(). The `reference+graph` variants use it to show that the
// engine computes the same numbers and is no slower than hand-written code.
#pragma once

#include "graphbench/core/record/graph_facts.h"

#include <functional>
#include <memory>

namespace graphbench {

class ReferenceGraph {
 public:
  // `before_capture` runs after the warm-up iterations (the reference variants use it to undo
  // the warm-up's updates so that validation compares the same steps).
  ReferenceGraph(const std::function<void()>& step, int warmup_iterations,
                 const std::function<void()>& before_capture = {});
  ~ReferenceGraph();
  void replay();
  double capture_ms() const;
  double warmup_ms() const;  // the warm-up iterations before it, device synchronised
  const GraphFacts& facts() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace graphbench
