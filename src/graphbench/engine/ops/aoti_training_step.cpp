#include "graphbench/engine/ops/aoti_training_step.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/exec/error_text.h"

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>

namespace graphbench::ops {

namespace {

class AotiTrainingStepOp final : public Op {
 public:
  explicit AotiTrainingStepOp(AotiTrainingCall call) : call_(std::move(call)) {
    for (const auto& t : call_.example_inputs) input_specs_.push_back(spec_of(t));
    for (const auto& t : call_.example_state) {
      input_specs_.push_back(spec_of(t));
      state_specs_.push_back(spec_of(t));
    }
  }

  std::string signature() const override { return fmt::format("aoti_training_step({})", call_.label); }
  bool differentiable() const override { return false; }

  // Output 1 + k is state input k, updated.
  std::vector<std::pair<int, int>> in_place() const override {
    std::vector<std::pair<int, int>> pairs;
    const int first_state = static_cast<int>(call_.example_inputs.size());
    for (int k = 0; k < static_cast<int>(state_specs_.size()); ++k) pairs.emplace_back(1 + k, first_state + k);
    return pairs;
  }

  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    if (in != input_specs_) {
      throw_op_error(*this, fmt::format("the package runs at its declared inputs and state ({}) only, got {}",
                                        to_string(input_specs_), to_string(in)));
    }
    if (!loss_spec_) loss_spec_ = learn_loss_spec();
    std::vector<TensorSpec> out{*loss_spec_};
    out.insert(out.end(), state_specs_.begin(), state_specs_.end());
    return out;
  }

  void run(OpIO& io) const override {
    std::vector<at::Tensor> outputs = call_.run(io.in_list(0, io.num_inputs()));
    check_output_count(outputs.size());
    io.out(0) = std::move(outputs[0]);
    if (!call_.state_returned) return;  // written into the state inputs, which the outputs alias
    for (std::size_t k = 0; k < state_specs_.size(); ++k) io.out(1 + k).copy_(outputs[1 + k]);
  }

 private:
  std::size_t expected_outputs() const { return call_.state_returned ? 1 + state_specs_.size() : 1; }

  void check_output_count(std::size_t count) const {
    if (count != expected_outputs()) {
      throw EngineError(fmt::format("package {} returned {} tensors, expected {} (the loss{})", call_.label, count,
                                    expected_outputs(), call_.state_returned ? " and the new state" : ""));
    }
  }

  // One call on the examples, with a copy of the state.
  TensorSpec learn_loss_spec() const {
    at::NoGradGuard no_grad;
    std::vector<at::Tensor> inputs = call_.example_inputs;
    for (const auto& t : call_.example_state) inputs.push_back(t.clone());
    std::vector<at::Tensor> outputs;
    try {
      outputs = call_.run(inputs);
    } catch (const std::exception& e) {
      throw EngineError(fmt::format("package {} rejects the inputs and state {}: {}", call_.label,
                                    to_string(input_specs_), error_text(e)));
    }
    check_output_count(outputs.size());
    if (outputs[0].numel() != 1) {
      throw EngineError(fmt::format("package {} returned {} first, not a loss (one value)", call_.label,
                                    to_string(spec_of(outputs[0]))));
    }
    for (std::size_t k = 1; k < outputs.size(); ++k) {
      if (spec_of(outputs[k]) != state_specs_[k - 1]) {
        throw EngineError(fmt::format("package {} returned {} as state {}, which is {}", call_.label,
                                      to_string(spec_of(outputs[k])), k - 1, to_string(state_specs_[k - 1])));
      }
    }
    return spec_of(outputs[0]);
  }

  AotiTrainingCall call_;
  std::vector<TensorSpec> input_specs_;  // the fed inputs, then the state
  std::vector<TensorSpec> state_specs_;
  mutable std::optional<TensorSpec> loss_spec_;  // from the first infer()
};

}  // namespace

ValueId aoti_training_step(Builder& b, AotiTrainingCall call, const std::vector<ValueId>& inputs,
                           const std::vector<ValueId>& state) {
  if (inputs.size() != call.example_inputs.size() || state.size() != call.example_state.size()) {
    throw EngineError(fmt::format("aoti_training_step({}): {} inputs and {} state values given, the examples have {} and {}",
                                  call.label, inputs.size(), state.size(), call.example_inputs.size(),
                                  call.example_state.size()));
  }
  std::vector<ValueId> all = inputs;
  all.insert(all.end(), state.begin(), state.end());
  return b.add(std::make_shared<AotiTrainingStepOp>(std::move(call)), all).at(0);
}

}  // namespace graphbench::ops
