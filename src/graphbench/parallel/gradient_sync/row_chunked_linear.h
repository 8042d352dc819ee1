// A Linear layer whose weight's gradient is computed in row chunks (gradient_chunks.h), so the
// overlapped all-reduce can start on the first chunks while backward computes the others: an
// oversized first-layer weight's gradient comes last and would be hidden by nothing. Each chunk is an
// autograd leaf of its own, a detached row-block view of the param made at every run, and
// y = cat_i(x W_i^T) + b, so each chunk's accumulator fires on its own. The param stays whole for
// the store, the optimizer and every check (chunked_params.h joins the chunks' gradients).
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

// `weight` [rows, in] split by plan_row_chunks(`chunk_bytes`); whole where it fits one chunk.
RowChunkedWeight chunk_weight_rows(Builder& b, ValueId weight, std::size_t chunk_bytes);

// y = x W^T + b: chunked, cat_i(x W_i^T) + b (may differ in the last bits); whole, ops::linear.
ValueId row_chunked_linear(Builder& b, ValueId x, const RowChunkedWeight& weight, ValueId bias);

}  // namespace graphbench::parallel
