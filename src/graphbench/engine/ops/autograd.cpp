#include "graphbench/engine/ops/autograd.h"

#include <torch/csrc/autograd/autograd.h>

#include <fmt/format.h>

namespace graphbench::ops {

namespace {

class BackwardOp final : public Op {
 public:
  explicit BackwardOp(std::size_t num_params) : num_params_(num_params) {}
  std::string signature() const override { return fmt::format("backward(n={})", num_params_); }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    return gradient_specs_of(*this, in, num_params_);
  }
  bool differentiable() const override { return false; }
  std::vector<int> differentiates_inputs() const override { return param_inputs(num_params_); }
  void run(OpIO& io) const override {
    std::vector<at::Tensor> grads =
        torch::autograd::grad({io.in(0)}, io.in_list(1, num_params_), /*grad_outputs=*/{},
                              /*retain_graph=*/false, /*create_graph=*/false, /*allow_unused=*/true);
    for (std::size_t i = 0; i < num_params_; ++i) {
      // A param the loss does not depend on gets a zero gradient rather than an undefined one.
      io.out(i) = grads[i].defined() ? grads[i] : at::zeros_like(io.in(i + 1));
    }
  }

 private:
  std::size_t num_params_;
};

}  // namespace

std::vector<TensorSpec> gradient_specs_of(const Op& op, const std::vector<TensorSpec>& in, std::size_t num_params) {
  expect_input_count(op, in, num_params + 1);
  if (!in[0].shape.empty()) throw_op_error(op, "the loss must be a 0-dim tensor, got " + to_string(in[0]));
  return std::vector<TensorSpec>(in.begin() + 1, in.end());
}

std::vector<int> param_inputs(std::size_t num_params) {
  std::vector<int> indices;
  for (std::size_t i = 1; i <= num_params; ++i) indices.push_back(static_cast<int>(i));
  return indices;
}

std::vector<ValueId> backward(Builder& b, ValueId loss, const std::vector<ValueId>& params) {
  std::vector<ValueId> inputs{loss};
  std::vector<std::string> names;
  for (ValueId p : params) {
    inputs.push_back(p);
    names.push_back("grad." + b.value(p).name);
  }
  return b.add(std::make_shared<BackwardOp>(params.size()), inputs, names);
}

}  // namespace graphbench::ops
