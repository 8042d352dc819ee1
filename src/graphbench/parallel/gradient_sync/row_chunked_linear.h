// A Linear layer whose weight's gradient is computed in row chunks (gradient_chunks.h), so that the
// overlapped all-reduce (overlapped_backward.h) can start on the first chunks while backward still
// computes the others: an oversized weight whose gradient backward produces last (the first layer's)
// would otherwise have its whole all-reduce after backward, hidden by nothing.
//
// How: each chunk is an autograd leaf of its own, a row block of the param that shares its storage
// (a detached view, made at every run: no copy, nothing captured), and the layer computes
// y = cat_i(x W_i^T) + b, one product per chunk. Autograd then runs one weight-gradient product per
// chunk, one after another, and each chunk's gradient accumulator fires on its own: the bucket
// machinery launches each chunk's all-reduce as soon as it is ready. The param itself stays whole:
// the store, the optimizer's update and every check see it (chunked_params.h joins the chunks'
// averaged gradients into its gradient).
//
//   auto w1 = parallel::chunk_weight_rows(b, b.param("fc1.weight", spec), chunk_bytes);
//   ValueId h = parallel::row_chunked_linear(b, x, w1, bias1);
#pragma once

#include "graphbench/engine/plan/builder.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace graphbench::parallel {

struct RowChunkedWeight {
  ValueId weight = -1;              // the param, whole
  std::vector<ValueId> chunks;      // what backward differentiates: the row-block leaves, or {weight}
  std::vector<std::int64_t> rows;   // rows per chunk, in row order
  bool chunked() const { return chunks.size() > 1; }
};

// `weight` [rows, in] split by plan_row_chunks(`chunk_bytes`); whole (chunks {weight}) when its
// gradient fits in one chunk or `chunk_bytes` is 0.
RowChunkedWeight chunk_weight_rows(Builder& b, ValueId weight, std::size_t chunk_bytes);

// y = x W^T + b; x [N, in], b [rows]. Chunked: cat_i(x W_i^T) + b (its numbers may differ from the
// fused x W^T + b in the last bits); whole: ops::linear.
ValueId row_chunked_linear(Builder& b, ValueId x, const RowChunkedWeight& weight, ValueId bias);

}  // namespace graphbench::parallel
