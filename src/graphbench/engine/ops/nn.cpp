#include "graphbench/engine/ops/nn.h"

#include "graphbench/engine/ops/op_helpers.h"

#include <fmt/format.h>

namespace graphbench::ops {

namespace {

using ops_detail::expect_rank;

class LinearOp final : public Op {
 public:
  std::string signature() const override { return "linear"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 3);
    expect_rank(*this, in[0], 2, "input");
    expect_rank(*this, in[1], 2, "weight");
    expect_rank(*this, in[2], 1, "bias");
    if (in[0].shape[1] != in[1].shape[1] || in[2].shape[0] != in[1].shape[0]) {
      throw_op_error(*this, fmt::format("input {}, weight {} and bias {} do not fit", shape_to_string(in[0].shape),
                                        shape_to_string(in[1].shape), shape_to_string(in[2].shape)));
    }
    return {TensorSpec{{in[0].shape[0], in[1].shape[0]}, in[0].dtype, in[0].device}};
  }
  bool computes_into_outputs() const override { return true; }
  void run(OpIO& io) const override {
    at::Tensor& out = io.out(0);
    if (out.defined()) {
      at::addmm_out(out, io.in(2), io.in(0), io.in(1).t());
    } else {
      out = at::linear(io.in(0), io.in(1), io.in(2));
    }
  }
};

class Conv2dOp final : public Op {
 public:
  std::string signature() const override { return "conv2d"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 3);
    expect_rank(*this, in[0], 4, "input");
    expect_rank(*this, in[1], 4, "weight");
    const auto& x = in[0].shape;
    const auto& w = in[1].shape;
    if (x[1] != w[1] || in[2].shape != std::vector<std::int64_t>{w[0]} || x[2] < w[2] || x[3] < w[3]) {
      throw_op_error(*this, fmt::format("input {}, weight {} and bias {} do not fit", shape_to_string(x),
                                        shape_to_string(w), shape_to_string(in[2].shape)));
    }
    return {TensorSpec{{x[0], w[0], x[2] - w[2] + 1, x[3] - w[3] + 1}, in[0].dtype, in[0].device}};
  }
  void run(OpIO& io) const override { io.out(0) = at::conv2d(io.in(0), io.in(1), io.in(2)); }
};

class MaxPool2dOp final : public Op {
 public:
  explicit MaxPool2dOp(std::int64_t kernel) : kernel_(kernel) {}
  std::string signature() const override { return fmt::format("max_pool2d(k={})", kernel_); }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 1);
    expect_rank(*this, in[0], 4, "input");
    auto shape = in[0].shape;
    shape[2] /= kernel_;
    shape[3] /= kernel_;
    return {TensorSpec{shape, in[0].dtype, in[0].device}};
  }
  void run(OpIO& io) const override { io.out(0) = at::max_pool2d(io.in(0), {kernel_, kernel_}); }

 private:
  std::int64_t kernel_;
};

class DropoutOp final : public Op {
 public:
  DropoutOp(double p, bool feature) : p_(p), feature_(feature) {}
  std::string signature() const override {
    return fmt::format("{}(p={})", feature_ ? "feature_dropout" : "dropout", p_);
  }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 1);
    return {in[0]};
  }
  void run(OpIO& io) const override {
    if (p_ == 0.0) {
      io.out(0) = io.in(0);
    } else if (feature_) {
      io.out(0) = at::feature_dropout(io.in(0), p_, /*train=*/true);
    } else {
      io.out(0) = at::dropout(io.in(0), p_, /*train=*/true);
    }
  }

 private:
  double p_;
  bool feature_;
};

class FlattenOp final : public Op {
 public:
  std::string signature() const override { return "flatten"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 1);
    std::int64_t rest = 1;
    for (std::size_t i = 1; i < in[0].shape.size(); ++i) rest *= in[0].shape[i];
    return {TensorSpec{{in[0].shape.at(0), rest}, in[0].dtype, in[0].device}};
  }
  void run(OpIO& io) const override { io.out(0) = io.in(0).reshape({io.in(0).size(0), -1}); }
};

class LogSoftmaxOp final : public Op {
 public:
  explicit LogSoftmaxOp(std::int64_t dim) : dim_(dim) {}
  std::string signature() const override { return fmt::format("log_softmax(dim={})", dim_); }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 1);
    return {in[0]};
  }
  void run(OpIO& io) const override { io.out(0) = at::log_softmax(io.in(0), dim_); }

 private:
  std::int64_t dim_;
};

class MseLossOp final : public Op {
 public:
  std::string signature() const override { return "mse_loss"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 2);
    if (in[0].shape != in[1].shape) {
      throw_op_error(*this, fmt::format("prediction {} and target {} differ", to_string(in[0]), to_string(in[1])));
    }
    return {TensorSpec{{}, in[0].dtype, in[0].device}};
  }
  void run(OpIO& io) const override { io.out(0) = at::mse_loss(io.in(0), io.in(1)); }
};

class MeanOp final : public Op {
 public:
  std::string signature() const override { return "mean"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 1);
    return {TensorSpec{{}, in[0].dtype, in[0].device}};
  }
  void run(OpIO& io) const override { io.out(0) = io.in(0).mean(); }
};

class NllLossOp final : public Op {
 public:
  explicit NllLossOp(bool sum) : sum_(sum) {}
  std::string signature() const override { return sum_ ? "nll_loss(sum)" : "nll_loss"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 2);
    expect_rank(*this, in[0], 2, "log-probabilities");
    expect_rank(*this, in[1], 1, "target");
    if (in[1].dtype != at::kLong || in[1].shape[0] != in[0].shape[0]) {
      throw_op_error(*this, fmt::format("target must be int64 [{}], got {}", in[0].shape[0], to_string(in[1])));
    }
    return {TensorSpec{{}, in[0].dtype, in[0].device}};
  }
  void run(OpIO& io) const override {
    io.out(0) = sum_ ? at::nll_loss(io.in(0), io.in(1), {}, at::Reduction::Sum) : at::nll_loss(io.in(0), io.in(1));
  }

 private:
  bool sum_;
};

class CountCorrectOp final : public Op {
 public:
  std::string signature() const override { return "count_correct"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 2);
    expect_rank(*this, in[0], 2, "scores");
    expect_rank(*this, in[1], 1, "target");
    return {TensorSpec{{}, at::kLong, in[0].device}};
  }
  bool differentiable() const override { return false; }
  void run(OpIO& io) const override { io.out(0) = io.in(0).argmax(1).eq(io.in(1)).sum(); }
};

}  // namespace

ValueId linear(Builder& b, ValueId x, ValueId weight, ValueId bias) {
  return b.add1(std::make_shared<LinearOp>(), {x, weight, bias});
}
ValueId conv2d(Builder& b, ValueId x, ValueId weight, ValueId bias) {
  return b.add1(std::make_shared<Conv2dOp>(), {x, weight, bias});
}
ValueId max_pool2d(Builder& b, ValueId x, std::int64_t kernel) {
  return b.add1(std::make_shared<MaxPool2dOp>(kernel), {x});
}
ValueId dropout(Builder& b, ValueId x, double p, bool feature) {
  return b.add1(std::make_shared<DropoutOp>(p, feature), {x});
}
ValueId flatten(Builder& b, ValueId x) { return b.add1(std::make_shared<FlattenOp>(), {x}); }
ValueId log_softmax(Builder& b, ValueId x, std::int64_t dim) {
  return b.add1(std::make_shared<LogSoftmaxOp>(dim), {x});
}
ValueId mse_loss(Builder& b, ValueId prediction, ValueId target) {
  return b.add1(std::make_shared<MseLossOp>(), {prediction, target});
}
ValueId mean(Builder& b, ValueId x) { return b.add1(std::make_shared<MeanOp>(), {x}); }
ValueId nll_loss(Builder& b, ValueId log_probs, ValueId target) {
  return b.add1(std::make_shared<NllLossOp>(false), {log_probs, target});
}
ValueId nll_loss_sum(Builder& b, ValueId log_probs, ValueId target) {
  return b.add1(std::make_shared<NllLossOp>(true), {log_probs, target});
}
ValueId count_correct(Builder& b, ValueId scores, ValueId target) {
  return b.add1(std::make_shared<CountCorrectOp>(), {scores, target});
}

}  // namespace graphbench::ops
