// A training step's params beside the values backward differentiates for them (the param, or a
// weight's row chunks): the store, the optimizer and every check see the params, backward and the
// all-reduce the differentiated values; join() gives one gradient per param again.
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

  // One gradient per param from one per differentiated value: a chunked weight's joined by rows (a
  // view where the all-reduce placed them adjacently, else a copy).
  std::vector<ValueId> join(Builder& b, const std::vector<ValueId>& grads) const;

 private:
  std::vector<ValueId> params_;
  std::vector<ValueId> differentiated_;
  std::vector<std::size_t> chunks_;  // per param: how many differentiated values it has
};

}  // namespace graphbench::parallel
