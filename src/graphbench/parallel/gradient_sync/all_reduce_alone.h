// The gradient all-reduce of a data-parallel step on its own, to tell communication from the rest:
// one average_gradients op over buffers shaped and bucketed like the step's, eager or captured.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"
#include "graphbench/engine/exec/executor.h"
#include "graphbench/engine/plan/tensor_spec.h"

#include <memory>
#include <vector>

namespace graphbench::parallel {

class AllReduceAlone {
 public:
  // `executor`: kEager or kGraph (captured once); `order`: the step's bucketing order (empty: as given).
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
