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

// An elementwise op of one tensor: computed into the output slot where given one, else a new tensor.
class OneTensorOp : public Op {
 public:
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const final {
    expect_input_count(*this, in, 1);
    return {in[0]};
  }
  bool computes_into_outputs() const final { return true; }
  void run(OpIO& io) const final {
    at::Tensor& out = io.out(0);
    if (out.defined()) {
      compute_into(out, io.in(0));
    } else {
      out = compute(io.in(0));
    }
  }

 protected:
  virtual at::Tensor compute(const at::Tensor& x) const = 0;
  virtual void compute_into(at::Tensor& out, const at::Tensor& x) const = 0;
};

enum class WithScalar { kMul, kDiv, kAdd };

class ScalarOp final : public OneTensorOp {
 public:
  ScalarOp(WithScalar kind, double c) : kind_(kind), c_(c), scalar_(wrapped_scalar(c)) {}
  std::string signature() const override {
    const char* name = kind_ == WithScalar::kMul ? "mul_scalar" : kind_ == WithScalar::kDiv ? "div_scalar" : "add_scalar";
    return fmt::format("{}(c={})", name, c_);
  }

 private:
  at::Tensor compute(const at::Tensor& x) const override {
    switch (kind_) {
      case WithScalar::kMul: return at::mul(x, c_);
      case WithScalar::kDiv: return at::div(x, c_);
      case WithScalar::kAdd: return at::add(x, c_);
    }
    return {};
  }
  void compute_into(at::Tensor& out, const at::Tensor& x) const override {
    switch (kind_) {
      case WithScalar::kMul: at::mul_out(out, x, scalar_); break;
      case WithScalar::kDiv: at::div_out(out, x, scalar_); break;
      case WithScalar::kAdd: at::add_out(out, x, scalar_); break;
    }
  }

  WithScalar kind_;
  double c_;
  at::Tensor scalar_;
};

enum class Unary { kErf, kRelu, kGelu };

class UnaryOp final : public OneTensorOp {
 public:
  explicit UnaryOp(Unary kind) : kind_(kind) {}
  std::string signature() const override {
    switch (kind_) {
      case Unary::kErf: return "erf";
      case Unary::kRelu: return "relu";
      case Unary::kGelu: return "gelu";
    }
    return "?";
  }

 private:
  at::Tensor compute(const at::Tensor& x) const override {
    switch (kind_) {
      case Unary::kErf: return at::erf(x);
      case Unary::kRelu: return at::relu(x);
      case Unary::kGelu: return at::gelu(x);
    }
    return {};
  }
  void compute_into(at::Tensor& out, const at::Tensor& x) const override {
    switch (kind_) {
      case Unary::kErf: at::erf_out(out, x); break;
      case Unary::kRelu: at::clamp_min_out(out, x, 0); break;
      case Unary::kGelu: at::gelu_out(out, x); break;
    }
  }

  Unary kind_;
};

}  // namespace

ValueId mul(Builder& b, ValueId x, ValueId y) { return b.add1(std::make_shared<MulOp>(), {x, y}); }
ValueId mul_scalar(Builder& b, ValueId x, double c) {
  return b.add1(std::make_shared<ScalarOp>(WithScalar::kMul, c), {x});
}
ValueId div_scalar(Builder& b, ValueId x, double c) {
  return b.add1(std::make_shared<ScalarOp>(WithScalar::kDiv, c), {x});
}
ValueId add_scalar(Builder& b, ValueId x, double c) {
  return b.add1(std::make_shared<ScalarOp>(WithScalar::kAdd, c), {x});
}
ValueId erf(Builder& b, ValueId x) { return b.add1(std::make_shared<UnaryOp>(Unary::kErf), {x}); }
ValueId relu(Builder& b, ValueId x) { return b.add1(std::make_shared<UnaryOp>(Unary::kRelu), {x}); }
ValueId gelu_native(Builder& b, ValueId x) { return b.add1(std::make_shared<UnaryOp>(Unary::kGelu), {x}); }

ValueId gelu_formula(Builder& b, ValueId x) {
  ValueId half_x = mul_scalar(b, x, 0.5);
  ValueId scaled = div_scalar(b, x, 1.41421);
  ValueId erf_x = erf(b, scaled);
  ValueId one_plus = add_scalar(b, erf_x, 1.0);
  return mul(b, half_x, one_plus);
}

}  // namespace graphbench::ops
