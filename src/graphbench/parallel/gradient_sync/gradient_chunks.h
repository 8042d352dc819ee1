// A weight [rows, ...] whose gradient exceeds the chunk cap is cut into consecutive row blocks of at
// most the cap (at least one row), so its all-reduce can start piece by piece during backward
// (docs/distributed.md, "Gradient chunks"); one within the cap stays whole.
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

// Whether `after` lies right after `before` in one memory, both contiguous, one dtype (a next row chunk).
bool lies_right_after(const at::Tensor& before, const at::Tensor& after);

}  // namespace graphbench::parallel
