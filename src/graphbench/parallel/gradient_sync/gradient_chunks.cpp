#include "graphbench/parallel/gradient_sync/gradient_chunks.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

#include <algorithm>

namespace graphbench::parallel {

std::vector<std::int64_t> plan_row_chunks(const TensorSpec& weight, std::size_t chunk_bytes) {
  if (weight.shape.empty() || weight.shape.front() < 1) {
    throw EngineError(fmt::format("a gradient is chunked by rows: {} has none", to_string(weight)));
  }
  const std::int64_t rows = weight.shape.front();
  const std::size_t row_bytes = static_cast<std::size_t>(weight.numel() / rows) * c10::elementSize(weight.dtype);
  if (chunk_bytes == 0 || row_bytes * static_cast<std::size_t>(rows) <= chunk_bytes) return {rows};
  // row_bytes > 0 here (an empty weight fits any cap); a row larger than the cap is a chunk alone.
  const auto per_chunk = static_cast<std::int64_t>(std::max<std::size_t>(1, chunk_bytes / row_bytes));
  std::vector<std::int64_t> chunks;
  for (std::int64_t first = 0; first < rows; first += per_chunk) chunks.push_back(std::min(per_chunk, rows - first));
  return chunks;
}

std::vector<TensorSpec> row_chunk_specs(const TensorSpec& weight, const std::vector<std::int64_t>& rows) {
  std::vector<TensorSpec> specs;
  for (std::int64_t r : rows) {
    TensorSpec chunk = weight;
    chunk.shape.front() = r;
    specs.push_back(std::move(chunk));
  }
  return specs;
}

bool lies_right_after(const at::Tensor& before, const at::Tensor& after) {
  return before.is_contiguous() && after.is_contiguous() && after.is_alias_of(before) &&
         after.scalar_type() == before.scalar_type() &&
         after.storage_offset() == before.storage_offset() + before.numel();
}

}  // namespace graphbench::parallel
