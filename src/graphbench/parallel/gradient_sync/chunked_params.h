// The params of a training step beside the values backward differentiates for them: a param
// itself, or the row chunks of a weight (row_chunked_linear.h). The store, the optimizer and every
// check see the params; backward and the gradient all-reduce see the differentiated values; join()
// gives one gradient per param again.
//
//   parallel::ChunkedParams p;
//   p.add(w1_chunked);  // a RowChunkedWeight
//   p.add(b1);
//   auto grads = p.join(b, parallel::step_gradients(b, loss, p.differentiated(), setup));
//   ops::sgd_step(b, p.params(), grads, sgd);
#pragma once

#include "graphbench/parallel/gradient_sync/row_chunked_linear.h"
#include "graphbench/engine/plan/builder.h"

#include <cstddef>
#include <vector>

namespace graphbench::parallel {

class ChunkedParams {
 public:
  void add(ValueId param);
  void add(const RowChunkedWeight& weight);

  const std::vector<ValueId>& params() const { return params_; }
  const std::vector<ValueId>& differentiated() const { return differentiated_; }

  // One gradient per param from one per differentiated value, in order: a chunked weight's gradient
  // is its chunks' joined by rows (a view where the overlapped all-reduce placed them one after
  // another, as it does for chunks that backward hands over in row order; else a copy), the others
  // are as given.
  std::vector<ValueId> join(Builder& b, const std::vector<ValueId>& grads) const;

 private:
  std::vector<ValueId> params_;
  std::vector<ValueId> differentiated_;
  std::vector<std::size_t> chunks_;  // per param: how many differentiated values it has
};

}  // namespace graphbench::parallel
