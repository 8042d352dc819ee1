// How a weight's gradient is split into row chunks so that its all-reduce can start piece by piece
// while backward still computes the rest (docs/distributed.md, "Gradient chunks"): a weight
// [rows, ...] whose gradient is larger than the chunk cap is cut into consecutive row blocks of
// at most the cap each (at least one row), all full but the last. A weight within the cap stays
// whole: one chunk of all its rows.
#pragma once

#include "graphbench/engine/plan/tensor_spec.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace graphbench::parallel {

// The rows of each chunk, in row order (they add up to the weight's rows). `chunk_bytes` 0: whole.
std::vector<std::int64_t> plan_row_chunks(const TensorSpec& weight, std::size_t chunk_bytes);

// The specs of the chunks: the weight's with its first dimension cut to each chunk's rows.
std::vector<TensorSpec> row_chunk_specs(const TensorSpec& weight, const std::vector<std::int64_t>& rows);

// Whether `after` lies right after `before` in the same memory, both contiguous and of one dtype:
// the next row chunk of the same tensor (their averages can then be one buffer, their join a view).
bool lies_right_after(const at::Tensor& before, const at::Tensor& after);

}  // namespace graphbench::parallel
