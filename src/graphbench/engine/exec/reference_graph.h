// The `reference+graph` variants: the LibTorch CUDA-graph tutorial's recipe (warm-up, CUDAGraph, replay).
#pragma once

#include "graphbench/core/record/graph_facts.h"

#include <functional>
#include <memory>

namespace graphbench {

class ReferenceGraph {
 public:
  // `before_capture` runs after the warm-up (to undo its updates).
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
