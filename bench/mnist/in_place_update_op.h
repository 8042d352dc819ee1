// An op of MNIST's device bookkeeping: updates its first input in place, under no_grad, allocating nothing.
#pragma once

#include "graphbench/engine/plan/op.h"

#include <ATen/core/grad_mode.h>

#include <utility>
#include <vector>

namespace graphbench::bench {

class InPlaceUpdateOp : public Op {
 public:
  std::vector<std::pair<int, int>> in_place() const final { return {{0, 0}}; }
  bool differentiable() const final { return false; }
  bool computes_into_outputs() const final { return true; }
  void run(OpIO& io) const final {
    at::NoGradGuard no_grad;
    update(io);
  }

 protected:
  // Writes the update into io.in(0).
  virtual void update(OpIO& io) const = 0;
};

}  // namespace graphbench::bench
