// The gradient all-reduce of a data-parallel step on its own, to tell communication time from the
// rest of the step: a program of one all-reduce op (parallel::average_gradients) over buffers shaped
// like the case's gradients, bucketed as the step buckets them, run eagerly or captured in a CUDA
// graph and replayed.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"
#include "graphbench/engine/exec/executor.h"
#include "graphbench/engine/plan/tensor_spec.h"

#include <functional>
#include <memory>
#include <vector>

namespace graphbench::parallel {

class AllReduceAlone {
 public:
  // `executor`: kEager (a collective per step) or kGraph (captured once, replayed). `order`: the
  // gradients in the step's bucketing order (empty: as given).
  AllReduceAlone(std::shared_ptr<Communicator> communicator, const std::vector<TensorSpec>& gradients,
                 ExecutorKind executor, const GradientAverageOptions& options = {},
                 const std::vector<std::size_t>& order = {});
  ~AllReduceAlone();
  void step();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace graphbench::parallel
