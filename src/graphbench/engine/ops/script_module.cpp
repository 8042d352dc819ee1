#include "graphbench/engine/ops/script_module.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/ops/op_helpers.h"

#include <fmt/format.h>

namespace graphbench::ops {

namespace {

void flatten_into(const c10::IValue& value, std::vector<at::Tensor>& out) {
  if (value.isTensor()) {
    out.push_back(value.toTensor());
  } else if (value.isNone()) {
    // Optional outputs a model left out.
  } else if (value.isTuple()) {
    for (const auto& item : value.toTupleRef().elements()) flatten_into(item, out);
  } else if (value.isList()) {
    for (const auto& item : value.toListRef()) flatten_into(item, out);
  } else if (value.isGenericDict()) {
    for (const auto& entry : value.toGenericDict()) flatten_into(entry.value(), out);
  } else {
    throw EngineError(fmt::format("the model returned a {}; graphbench compares tensors only (a tensor, or "
                                  "tuples, lists and dicts of tensors)",
                                  value.tagKind()));
  }
}

// Where a parameter lives: the object holding it (the module or a submodule) and its slot.
struct ParamSlot {
  c10::intrusive_ptr<c10::ivalue::Object> owner;
  std::size_t slot = 0;
};

ParamSlot find_param_slot(const torch::jit::Module& module, const std::string& qualified_name) {
  torch::jit::Module owner = module;
  std::string rest = qualified_name;
  for (auto dot = rest.find('.'); dot != std::string::npos; dot = rest.find('.')) {
    owner = owner.attr(rest.substr(0, dot)).toModule();
    rest = rest.substr(dot + 1);
  }
  const auto slot = owner.type()->findAttributeSlot(rest);
  if (!slot) throw EngineError(fmt::format("the model has no parameter {}", qualified_name));
  return ParamSlot{owner._ivalue(), *slot};
}

class ScriptModuleOp final : public ops_detail::BlackBoxOp {
 public:
  explicit ScriptModuleOp(ScriptModuleCall call)
      : BlackBoxOp("model", std::move(call.label), std::move(call.example_inputs)),
        module_(std::move(call.module)),
        forward_(module_.get_method("forward")) {
    for (const auto& name : call.param_names) params_.push_back(find_param_slot(module_, name));
  }

  std::string signature() const override { return fmt::format("torchscript({})", label_); }

  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, examples_.size() + params_.size());
    const std::vector<TensorSpec> inputs(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(examples_.size()));
    return outputs_at(inputs, [&] {
      return flatten_tensors(forward_(std::vector<c10::IValue>(examples_.begin(), examples_.end())));
    });
  }

  void run(OpIO& io) const override {
    const std::size_t n = examples_.size();
    for (std::size_t k = 0; k < params_.size(); ++k) {
      const at::Tensor& param = io.in(n + k);
      const ParamSlot& p = params_[k];
      if (p.owner->getSlot(p.slot).toTensor().unsafeGetTensorImpl() != param.unsafeGetTensorImpl()) {
        p.owner->setSlot(p.slot, param);
      }
    }
    std::vector<c10::IValue> args;
    args.reserve(n);
    for (std::size_t i = 0; i < n; ++i) args.emplace_back(io.in(i));
    set_outputs(io, flatten_tensors(forward_(std::move(args))));
  }

 private:
  torch::jit::Module module_;
  torch::jit::Method forward_;
  std::vector<ParamSlot> params_;
};

}  // namespace

std::vector<at::Tensor> flatten_tensors(const c10::IValue& value) {
  std::vector<at::Tensor> out;
  flatten_into(value, out);
  return out;
}

std::vector<ValueId> script_module_call(Builder& b, ScriptModuleCall call, const std::vector<ValueId>& inputs,
                                        const std::vector<ValueId>& params) {
  if (inputs.size() != call.example_inputs.size() || params.size() != call.param_names.size()) {
    throw EngineError(fmt::format("script_module_call: {} inputs and {} params for {} examples and {} param names",
                                  inputs.size(), params.size(), call.example_inputs.size(), call.param_names.size()));
  }
  std::vector<ValueId> all = inputs;
  all.insert(all.end(), params.begin(), params.end());
  return b.add(std::make_shared<ScriptModuleOp>(std::move(call)), all);
}

}  // namespace graphbench::ops
