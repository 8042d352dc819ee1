#include "graphbench/engine/ops/optimizers.h"

#include <torch/version.h>

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>

#include <stdexcept>

namespace graphbench::ops {

namespace {

// p -= lr * update, with lr a 0-dim device tensor.
void apply_scaled_update(const std::vector<at::Tensor>& params, const std::vector<at::Tensor>& updates,
                         const at::Tensor& lr) {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 1)
  // Two multi-tensor kernels for all params (LibTorch 2.1+ has foreach ops taking a tensor scalar).
  at::_foreach_sub_(params, at::_foreach_mul(updates, lr));
#else
  for (std::size_t i = 0; i < params.size(); ++i) params[i].addcmul_(updates[i], lr, -1.0);
#endif
}

// Every group g in [1, groups) of n inputs after the params has the params' shapes, input by input.
void expect_param_shaped_groups(const Op& op, const std::vector<TensorSpec>& in, std::size_t n, std::size_t groups) {
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t g = 1; g < groups; ++g) {
      if (in[g * n + i].shape != in[i].shape) {
        throw_op_error(op, fmt::format("param {} is {} but its input {} is {}", i, to_string(in[i]), g * n + i,
                                       to_string(in[g * n + i])));
      }
    }
  }
}

// An optimizer's update of n params: inputs the params, gradients, state (`groups` groups of n, then
// `scalars` 0-dim tensors) and lr; outputs the params and state in place (output k > n-1 is input k + n).
class UpdateOp : public Op {
 public:
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 2 * n_ + state() + 1);
    expect_param_shaped_groups(*this, in, n_, 2 + groups_);
    std::vector<TensorSpec> out(in.begin(), in.begin() + static_cast<long>(n_));
    out.insert(out.end(), in.begin() + static_cast<long>(2 * n_), in.begin() + static_cast<long>(2 * n_ + state()));
    return out;
  }
  std::vector<std::pair<int, int>> in_place() const override {
    std::vector<std::pair<int, int>> pairs;
    for (std::size_t i = 0; i < n_; ++i) pairs.emplace_back(static_cast<int>(i), static_cast<int>(i));
    for (std::size_t k = n_; k < n_ + state(); ++k) pairs.emplace_back(static_cast<int>(k), static_cast<int>(k + n_));
    return pairs;
  }
  bool differentiable() const override { return false; }
  void run(OpIO& io) const override {
    at::NoGradGuard no_grad;
    update(io, io.in_list(0, n_), io.in_list(n_, n_));
  }

 protected:
  UpdateOp(std::size_t n, std::size_t groups, std::size_t scalars) : n_(n), groups_(groups), scalars_(scalars) {}
  // The update itself, under no_grad.
  virtual void update(OpIO& io, std::vector<at::Tensor> params, std::vector<at::Tensor> grads) const = 0;

  std::size_t n_;

 private:
  std::size_t state() const { return groups_ * n_ + scalars_; }
  std::size_t groups_;
  std::size_t scalars_;
};

class SgdOp final : public UpdateOp {
 public:
  SgdOp(std::size_t n, SgdOptions options) : UpdateOp(n, options.momentum != 0.0 ? 1 : 0, 0), options_(options) {}
  std::string signature() const override {
    return fmt::format("sgd(n={}, momentum={}, weight_decay={})", n_, options_.momentum, options_.weight_decay);
  }

 private:
  bool has_momentum() const { return options_.momentum != 0.0; }
  void update(OpIO& io, std::vector<at::Tensor> params, std::vector<at::Tensor> grads) const override {
    const at::Tensor& lr = io.in(io.num_inputs() - 1);
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    if (params.front().is_cuda()) {
      // One multi-tensor kernel for the whole update, reading lr from the device (the tensor-lr
      // overload). The buffers start at zero, so every step is a "not first" step: buf = m*buf + g.
      const std::vector<at::Tensor> buffers = has_momentum() ? io.in_list(2 * n_, n_) : std::vector<at::Tensor>{};
      at::_fused_sgd_(params, grads, buffers, options_.weight_decay, options_.momentum, lr, /*dampening=*/0.0,
                      /*nesterov=*/false, /*maximize=*/false, /*is_first_step=*/false);
      return;
    }
#endif
    if (options_.weight_decay != 0.0) grads = at::_foreach_add(grads, params, options_.weight_decay);
    if (has_momentum()) {
      std::vector<at::Tensor> buffers = io.in_list(2 * n_, n_);
      at::_foreach_mul_(buffers, options_.momentum);
      at::_foreach_add_(buffers, grads);
      apply_scaled_update(params, buffers, lr);
    } else {
      apply_scaled_update(params, grads, lr);
    }
  }

  SgdOptions options_;
};

class AdamOp final : public UpdateOp {
 public:
  AdamOp(std::size_t n, AdamOptions options) : UpdateOp(n, 2, 1), options_(options) {}
  std::string signature() const override {
    return fmt::format("{}(n={}, betas=({}, {}), eps={}, weight_decay={})",
                       options_.decoupled_weight_decay ? "adamw" : "adam", n_, options_.beta1, options_.beta2,
                       options_.eps, options_.weight_decay);
  }
 private:
  // State: the moments exp_avg and exp_avg_sq (two groups), then the step count.
  void update(OpIO& io, std::vector<at::Tensor> params, std::vector<at::Tensor> grads) const override {
    std::vector<at::Tensor> exp_avg = io.in_list(2 * n_, n_);
    std::vector<at::Tensor> exp_avg_sq = io.in_list(3 * n_, n_);
    const at::Tensor& step = io.in(4 * n_);
    const at::Tensor& lr = io.in(4 * n_ + 1);

    step.add_(1);
    // Bias corrections from the device step count: 1 - beta^step, as tensors.
    const at::Tensor bias_correction1 = 1 - at::pow(options_.beta1, step);
    const at::Tensor bias_correction2_sqrt = at::sqrt(1 - at::pow(options_.beta2, step));
    const at::Tensor step_size = lr / bias_correction1;

    if (options_.weight_decay != 0.0) {
      if (options_.decoupled_weight_decay) {
        const at::Tensor shrink = 1 - lr * options_.weight_decay;
        for (auto& p : params) p.mul_(shrink);
      } else {
        grads = at::_foreach_add(grads, params, options_.weight_decay);
      }
    }
    at::_foreach_mul_(exp_avg, options_.beta1);
    at::_foreach_add_(exp_avg, grads, 1 - options_.beta1);
    at::_foreach_mul_(exp_avg_sq, options_.beta2);
    at::_foreach_addcmul_(exp_avg_sq, grads, grads, 1 - options_.beta2);
    for (std::size_t i = 0; i < n_; ++i) {
      at::Tensor denom = (exp_avg_sq[i].sqrt() / bias_correction2_sqrt).add_(options_.eps);
      params[i].sub_(exp_avg[i] / denom * step_size);
    }
  }

  AdamOptions options_;
};

TensorSpec scalar_spec(const TensorSpec& like) { return TensorSpec{{}, at::kFloat, like.device}; }

// The params and their gradients as an update op's first inputs, the params' updated names ("p'").
void begin_update(const Builder& b, const std::vector<ValueId>& params, const std::vector<ValueId>& grads,
                  std::vector<ValueId>& inputs, std::vector<std::string>& names) {
  inputs = params;
  inputs.insert(inputs.end(), grads.begin(), grads.end());
  for (ValueId p : params) names.push_back(b.value(p).name + "'");
}

// A state "<param><suffix>" of zeros per param, appended to `inputs`, its updated name to `names`.
void add_state_group(Builder& b, const std::vector<ValueId>& params, const char* suffix, std::vector<ValueId>& inputs,
                     std::vector<std::string>& names) {
  for (ValueId p : params) names.push_back(b.value(p).name + suffix + "'");
  for (ValueId p : params) inputs.push_back(b.state(b.value(p).name + suffix, b.spec(p), 0.0));
}

}  // namespace

std::vector<ValueId> sgd_step(Builder& b, const std::vector<ValueId>& params, const std::vector<ValueId>& grads,
                              const SgdOptions& options, const std::string& prefix) {
  std::vector<ValueId> inputs;
  std::vector<std::string> names;
  begin_update(b, params, grads, inputs, names);
  if (options.momentum != 0.0) add_state_group(b, params, ".momentum_buffer", inputs, names);
  inputs.push_back(b.state(prefix + ".lr", scalar_spec(b.spec(params.at(0))), options.lr));
  auto outputs = b.add(std::make_shared<SgdOp>(params.size(), options), inputs, names);
  return {outputs.begin(), outputs.begin() + static_cast<long>(params.size())};
}

std::vector<ValueId> adam_step(Builder& b, const std::vector<ValueId>& params, const std::vector<ValueId>& grads,
                               const AdamOptions& options, const std::string& prefix) {
  std::vector<ValueId> inputs;
  std::vector<std::string> names;
  begin_update(b, params, grads, inputs, names);
  add_state_group(b, params, ".exp_avg", inputs, names);
  add_state_group(b, params, ".exp_avg_sq", inputs, names);
  const TensorSpec scalar = scalar_spec(b.spec(params.at(0)));
  inputs.push_back(b.state(prefix + ".step", scalar, 0.0));
  inputs.push_back(b.state(prefix + ".lr", scalar, options.lr));
  names.push_back(prefix + ".step'");
  auto outputs = b.add(std::make_shared<AdamOp>(params.size(), options), inputs, names);
  return {outputs.begin(), outputs.begin() + static_cast<long>(params.size())};
}

std::vector<ValueId> optimizer_step(Builder& b, const std::vector<ValueId>& params, const std::vector<ValueId>& grads,
                                    const OptimizerChoice& choice) {
  if (choice.name == "sgd") return sgd_step(b, params, grads, SgdOptions{choice.lr, choice.momentum, choice.weight_decay});
  if (choice.name != "adam" && choice.name != "adamw") {
    throw std::invalid_argument("optimizer_step: expected optimizer sgd, adam or adamw, got " + choice.name);
  }
  AdamOptions adam;
  adam.lr = choice.lr;
  adam.weight_decay = choice.weight_decay;
  adam.decoupled_weight_decay = choice.name == "adamw";
  return adam_step(b, params, grads, adam);
}

}  // namespace graphbench::ops
