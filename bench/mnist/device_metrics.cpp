#include "mnist/device_metrics.h"
#include "mnist/in_place_update_op.h"

#include <fmt/format.h>

#include <limits>

namespace graphbench::bench {

namespace {

void expect_scalar(const Op& op, const TensorSpec& spec, const char* what) {
  if (!spec.shape.empty()) throw_op_error(op, fmt::format("{} must be 0-dim, got {}", what, to_string(spec)));
}

// Inputs: log [capacity], step int64 [], value []. Output: log (in place).
class LogAtStepOp final : public InPlaceUpdateOp {
 public:
  std::string signature() const override { return "log_at_step"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 3);
    if (in[0].shape.size() != 1) throw_op_error(*this, fmt::format("the log must be 1-D, got {}", to_string(in[0])));
    expect_scalar(*this, in[1], "the step");
    expect_scalar(*this, in[2], "the value");
    if (in[1].dtype != at::kLong) throw_op_error(*this, fmt::format("the step must be int64, got {}", to_string(in[1])));
    return {in[0]};
  }

 private:
  void update(OpIO& io) const override {
    io.in(0).index_copy_(0, io.in(1).view({1}), io.in(2).detach().view({1}).to(io.in(0).scalar_type()));
  }
};

// Inputs: total [], value []. Output: total (in place).
class AccumulateOp final : public InPlaceUpdateOp {
 public:
  std::string signature() const override { return "accumulate"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 2);
    expect_scalar(*this, in[0], "the total");
    expect_scalar(*this, in[1], "the value");
    return {in[0]};
  }

 private:
  void update(OpIO& io) const override { io.in(0).add_(io.in(1).detach()); }
};

}  // namespace

ValueId log_at_step(Builder& b, const std::string& name, std::int64_t capacity, ValueId step, ValueId value) {
  const TensorSpec spec{{capacity}, at::kFloat, b.spec(value).device};
  const ValueId log = b.state(name, spec, std::numeric_limits<double>::quiet_NaN());
  return b.add1(std::make_shared<LogAtStepOp>(), {log, step, value}, name + "'");
}

ValueId accumulate(Builder& b, const std::string& name, at::ScalarType dtype, ValueId value) {
  const ValueId total = b.state(name, TensorSpec{{}, dtype, b.spec(value).device}, 0.0);
  return b.add1(std::make_shared<AccumulateOp>(), {total, value}, name + "'");
}

}  // namespace graphbench::bench
