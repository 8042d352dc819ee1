#include "graphbench/engine/ops/elementwise.h"

#include "graphbench/engine/ops/op_helpers.h"

#include <fmt/format.h>

namespace graphbench::ops {

namespace {

using ops_detail::wrapped_scalar;

class MulOp final : public Op {
 public:
  std::string signature() const override { return "mul"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 2);
    ops_detail::expect_same_dtype_device(*this, in[0], in[1]);
    return {TensorSpec{ops_detail::broadcast_shapes(*this, in[0], in[1]), in[0].dtype, in[0].device}};
  }
  bool computes_into_outputs() const override { return true; }
  void run(OpIO& io) const override {
    at::Tensor& out = io.out(0);
    out.defined() ? (void)at::mul_out(out, io.in(0), io.in(1)) : (void)(out = at::mul(io.in(0), io.in(1)));
  }
};

// An elementwise op of one tensor: computed into the output slot where given one (`into`), else into
// a new tensor (`compute`). The callables are template arguments, so a step calls them directly.
template <class Compute, class Into>
class OneTensorOp final : public Op {
 public:
  OneTensorOp(std::string signature, Compute compute, Into into)
      : signature_(std::move(signature)), compute_(std::move(compute)), into_(std::move(into)) {}
  std::string signature() const override { return signature_; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 1);
    return {in[0]};
  }
  bool computes_into_outputs() const override { return true; }
  void run(OpIO& io) const override {
    at::Tensor& out = io.out(0);
    if (out.defined()) {
      into_(out, io.in(0));
    } else {
      out = compute_(io.in(0));
    }
  }

 private:
  std::string signature_;
  Compute compute_;
  Into into_;
};

template <class Compute, class Into>
ValueId one_tensor_op(Builder& b, ValueId x, std::string signature, Compute compute, Into into) {
  using OpType = OneTensorOp<Compute, Into>;
  return b.add1(std::make_shared<OpType>(std::move(signature), std::move(compute), std::move(into)), {x});
}

}  // namespace

ValueId mul(Builder& b, ValueId x, ValueId y) { return b.add1(std::make_shared<MulOp>(), {x, y}); }
// The scalar ops' out= forms take it as a wrapped tensor, made once.
ValueId mul_scalar(Builder& b, ValueId x, double c) {
  return one_tensor_op(b, x, fmt::format("mul_scalar(c={})", c), [c](const at::Tensor& t) { return at::mul(t, c); },
                       [s = wrapped_scalar(c)](at::Tensor& out, const at::Tensor& t) { at::mul_out(out, t, s); });
}
ValueId div_scalar(Builder& b, ValueId x, double c) {
  return one_tensor_op(b, x, fmt::format("div_scalar(c={})", c), [c](const at::Tensor& t) { return at::div(t, c); },
                       [s = wrapped_scalar(c)](at::Tensor& out, const at::Tensor& t) { at::div_out(out, t, s); });
}
ValueId add_scalar(Builder& b, ValueId x, double c) {
  return one_tensor_op(b, x, fmt::format("add_scalar(c={})", c), [c](const at::Tensor& t) { return at::add(t, c); },
                       [s = wrapped_scalar(c)](at::Tensor& out, const at::Tensor& t) { at::add_out(out, t, s); });
}
ValueId erf(Builder& b, ValueId x) {
  return one_tensor_op(b, x, "erf", [](const at::Tensor& t) { return at::erf(t); },
                       [](at::Tensor& out, const at::Tensor& t) { at::erf_out(out, t); });
}
ValueId relu(Builder& b, ValueId x) {
  return one_tensor_op(b, x, "relu", [](const at::Tensor& t) { return at::relu(t); },
                       [](at::Tensor& out, const at::Tensor& t) { at::clamp_min_out(out, t, 0); });
}
ValueId gelu_native(Builder& b, ValueId x) {
  return one_tensor_op(b, x, "gelu", [](const at::Tensor& t) { return at::gelu(t); },
                       [](at::Tensor& out, const at::Tensor& t) { at::gelu_out(out, t); });
}

ValueId gelu_formula(Builder& b, ValueId x) {
  ValueId half_x = mul_scalar(b, x, 0.5);
  ValueId scaled = div_scalar(b, x, 1.41421);
  ValueId erf_x = erf(b, scaled);
  ValueId one_plus = add_scalar(b, erf_x, 1.0);
  return mul(b, half_x, one_plus);
}

}  // namespace graphbench::ops
