#include "graphbench/parallel/gradient_sync/row_chunked_linear.h"

#include "graphbench/engine/ops/nn.h"
#include "graphbench/engine/ops/op_helpers.h"
#include "graphbench/parallel/gradient_sync/gradient_chunks.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <numeric>

namespace graphbench::parallel {

namespace {

using ops_detail::expect_rank;

// The weight's row blocks as autograd leaves sharing its storage (the param's gradient: theirs joined).
class RowChunkLeavesOp final : public Op {
 public:
  explicit RowChunkLeavesOp(std::vector<std::int64_t> rows) : rows_(std::move(rows)) {}
  std::string signature() const override { return fmt::format("row_chunk_leaves(rows=[{}])", fmt::join(rows_, ", ")); }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 1);
    const std::int64_t total = std::accumulate(rows_.begin(), rows_.end(), std::int64_t{0});
    if (in[0].shape.empty() || in[0].shape.front() != total) {
      throw_op_error(*this, fmt::format("the chunks' rows add up to {}, the weight is {}", total, to_string(in[0])));
    }
    return row_chunk_specs(in[0], rows_);
  }
  bool differentiable() const override { return false; }
  void run(OpIO& io) const override {
    // detach() twice: a view of nothing that autograd tracks, then a leaf of its own (no view
    // metadata tying it to the param); the storage stays the param's.
    const at::Tensor whole = io.in(0).detach();
    std::int64_t first = 0;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      at::Tensor leaf = whole.narrow(0, first, rows_[i]).detach();
      leaf.requires_grad_(true);
      io.out(i) = std::move(leaf);
      first += rows_[i];
    }
  }

 private:
  std::vector<std::int64_t> rows_;
};

// cat_i(x W_i^T) + b: one product per chunk, so one weight-gradient product per chunk in backward.
class RowChunkedLinearOp final : public Op {
 public:
  explicit RowChunkedLinearOp(std::size_t chunks) : chunks_(chunks) {}
  std::string signature() const override { return fmt::format("row_chunked_linear(chunks={})", chunks_); }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, chunks_ + 2);
    expect_rank(*this, in[0], 2, "input");
    std::int64_t rows = 0;
    for (std::size_t i = 1; i <= chunks_; ++i) {
      expect_rank(*this, in[i], 2, "weight chunk");
      if (in[i].shape[1] != in[0].shape[1]) {
        throw_op_error(*this, fmt::format("input {} and weight chunk {} do not fit", shape_to_string(in[0].shape),
                                          shape_to_string(in[i].shape)));
      }
      rows += in[i].shape[0];
    }
    const TensorSpec& bias = in[chunks_ + 1];
    expect_rank(*this, bias, 1, "bias");
    if (bias.shape[0] != rows) {
      throw_op_error(*this, fmt::format("bias {} does not fit the chunks' {} rows", shape_to_string(bias.shape), rows));
    }
    return {TensorSpec{{in[0].shape[0], rows}, in[0].dtype, in[0].device}};
  }
  void run(OpIO& io) const override {
    const at::Tensor& x = io.in(0);
    std::vector<at::Tensor> products(chunks_);
    // The last chunk's product first: of sibling autograd nodes, backward runs the later-made one
    // first, so the first chunk's gradient comes first (row order, as the chunks lie in the param).
    for (std::size_t i = chunks_; i-- > 0;) products[i] = at::mm(x, io.in(1 + i).t());
    io.out(0) = at::add(at::cat(products, 1), io.in(chunks_ + 1));
  }

 private:
  std::size_t chunks_;
};

}  // namespace

RowChunkedWeight chunk_weight_rows(Builder& b, ValueId weight, std::size_t chunk_bytes) {
  RowChunkedWeight out;
  out.weight = weight;
  out.rows = plan_row_chunks(b.spec(weight), chunk_bytes);
  if (out.rows.size() == 1) {
    out.chunks = {weight};
    return out;
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < out.rows.size(); ++i) names.push_back(fmt::format("{}.chunk{}", b.value(weight).name, i));
  out.chunks = b.add(std::make_shared<RowChunkLeavesOp>(out.rows), {weight}, names);
  return out;
}

ValueId row_chunked_linear(Builder& b, ValueId x, const RowChunkedWeight& weight, ValueId bias) {
  if (!weight.chunked()) return ops::linear(b, x, weight.weight, bias);
  std::vector<ValueId> inputs{x};
  inputs.insert(inputs.end(), weight.chunks.begin(), weight.chunks.end());
  inputs.push_back(bias);
  return b.add1(std::make_shared<RowChunkedLinearOp>(weight.chunks.size()), inputs);
}

}  // namespace graphbench::parallel
