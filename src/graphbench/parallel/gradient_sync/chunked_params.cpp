#include "graphbench/parallel/gradient_sync/chunked_params.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/gradient_sync/gradient_chunks.h"

#include <fmt/format.h>

namespace graphbench::parallel {

namespace {

// Whether `chunks` lie one after another in one tensor's memory, contiguous.
bool adjacent(const std::vector<at::Tensor>& chunks) {
  if (!chunks.front().is_contiguous()) return false;
  for (std::size_t i = 1; i < chunks.size(); ++i) {
    if (!lies_right_after(chunks[i - 1], chunks[i])) return false;
  }
  return true;
}

// The chunks' gradients joined by rows: a view where the averages lie adjacently (joined ranges), else
// a copy; never computed into a fixed output.
class JoinRowsOp final : public Op {
 public:
  explicit JoinRowsOp(std::size_t chunks) : chunks_(chunks) {}
  std::string signature() const override { return fmt::format("join_rows(chunks={})", chunks_); }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, chunks_);
    for (const TensorSpec& chunk : in) {
      if (chunk.shape.empty()) throw_op_error(*this, "a chunk has no rows: " + to_string(chunk));
    }
    TensorSpec joined = in.front();
    for (std::size_t i = 1; i < in.size(); ++i) {
      TensorSpec same = in[i];
      same.shape.front() = joined.shape.front();
      if (same != joined) {
        throw_op_error(*this, fmt::format("chunks {} and {} do not join: {} vs {}", 0, i, to_string(in.front()),
                                          to_string(in[i])));
      }
      joined.shape.front() += in[i].shape.front();
    }
    return {joined};
  }
  bool differentiable() const override { return false; }
  void run(OpIO& io) const override {
    const std::vector<at::Tensor> chunks = io.in_list(0, chunks_);
    if (!adjacent(chunks)) {
      io.out(0) = at::cat(chunks, 0);
      return;
    }
    std::vector<std::int64_t> sizes = chunks.front().sizes().vec();
    for (std::size_t i = 1; i < chunks.size(); ++i) sizes.front() += chunks[i].size(0);
    std::vector<std::int64_t> strides(sizes.size(), 1);
    for (std::size_t d = sizes.size() - 1; d-- > 0;) strides[d] = strides[d + 1] * sizes[d + 1];
    io.out(0) = chunks.front().as_strided(sizes, strides);
  }

 private:
  std::size_t chunks_;
};

}  // namespace

void ChunkedParams::add(ValueId param) {
  params_.push_back(param);
  differentiated_.push_back(param);
  chunks_.push_back(1);
}

void ChunkedParams::add(const RowChunkedWeight& weight) {
  params_.push_back(weight.weight);
  differentiated_.insert(differentiated_.end(), weight.chunks.begin(), weight.chunks.end());
  chunks_.push_back(weight.chunks.size());
}

std::vector<ValueId> ChunkedParams::join(Builder& b, const std::vector<ValueId>& grads) const {
  if (grads.size() != differentiated_.size()) {
    throw EngineError(fmt::format("ChunkedParams::join: {} gradients for {} differentiated values", grads.size(),
                                  differentiated_.size()));
  }
  std::vector<ValueId> joined;
  std::size_t next = 0;
  for (std::size_t p = 0; p < params_.size(); ++p) {
    if (chunks_[p] == 1) {
      joined.push_back(grads[next++]);
      continue;
    }
    const std::vector<ValueId> pieces(grads.begin() + static_cast<long>(next),
                                      grads.begin() + static_cast<long>(next + chunks_[p]));
    next += chunks_[p];
    joined.push_back(b.add1(std::make_shared<JoinRowsOp>(pieces.size()), pieces,
                            "grad." + b.value(params_[p]).name + ".joined"));
  }
  return joined;
}

}  // namespace graphbench::parallel
