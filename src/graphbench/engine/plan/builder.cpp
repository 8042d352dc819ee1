#include "graphbench/engine/plan/builder.h"

#include "graphbench/core/base/errors.h"

#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <fmt/format.h>

#include <atomic>

namespace graphbench {

namespace {
std::atomic<std::uint64_t> next_program_id{1};

// "cuda" means the current CUDA device: tensors carry an index, so a spec must too to equal theirs.
TensorSpec with_device_index(TensorSpec spec) {
  const at::DeviceType type = spec.device.type();
  if (!spec.device.has_index() && type != at::kCPU && c10::impl::hasDeviceGuardImpl(type)) {
    spec.device = at::Device(type, c10::impl::getDeviceGuardImpl(type)->getDevice().index());
  }
  return spec;
}

std::string op_kind(const Op& op) {
  std::string sig = op.signature();
  return sig.substr(0, sig.find('('));
}
}  // namespace

Builder::Builder(std::string name) : program_(std::make_unique<Program>()) {
  program_->name_ = std::move(name);
}

const ValueInfo& Builder::value(ValueId id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= program_->values_.size()) {
    throw EngineError(fmt::format("program {}: no value with id {}", program_->name_, id));
  }
  return program_->values_[static_cast<std::size_t>(id)];
}

ValueId Builder::add_value(ValueInfo info) {
  if (built_) throw EngineError("Builder used after build()");
  for (const auto& v : program_->values_) {
    if (v.name == info.name) {
      throw EngineError(fmt::format("program {}: two values named \"{}\"", program_->name_, info.name));
    }
  }
  info.id = static_cast<ValueId>(program_->values_.size());
  program_->values_.push_back(std::move(info));
  return program_->values_.back().id;
}

ValueId Builder::add_external(const std::string& name, Role role, const TensorSpec& spec,
                              std::optional<double> initial_fill) {
  ValueInfo info;
  info.initial_fill = initial_fill;
  info.name = name;
  info.role = role;
  info.spec = with_device_index(spec);
  ValueId id = add_value(std::move(info));
  program_->external_vids_.push_back(id);
  return id;
}

ValueId Builder::input(const std::string& name, const TensorSpec& spec) {
  return add_external(name, Role::kInput, spec);
}
ValueId Builder::param(const std::string& name, const TensorSpec& spec) {
  return add_external(name, Role::kParam, spec);
}
ValueId Builder::state(const std::string& name, const TensorSpec& spec, std::optional<double> initial_fill) {
  return add_external(name, Role::kState, spec, initial_fill);
}

std::vector<ValueId> Builder::add(std::shared_ptr<const Op> op, const std::vector<ValueId>& inputs,
                                  const std::vector<std::string>& output_names) {
  std::vector<TensorSpec> in_specs;
  in_specs.reserve(inputs.size());
  for (ValueId id : inputs) in_specs.push_back(value(id).spec);
  std::vector<TensorSpec> out_specs = op->infer(in_specs);

  std::vector<ValueId> outputs;
  const std::string kind = op_kind(*op);
  for (std::size_t i = 0; i < out_specs.size(); ++i) {
    ValueInfo info;
    if (i < output_names.size() && !output_names[i].empty()) {
      info.name = output_names[i];
    } else {
      info.name = fmt::format("{}.{}", kind, program_->values_.size());
    }
    info.spec = out_specs[i];
    outputs.push_back(add_value(std::move(info)));
  }
  for (auto [out_index, in_index] : op->in_place()) {
    ValueId source = inputs.at(static_cast<std::size_t>(in_index));
    // An update of an update still writes the first slot: follow the chain to its root.
    while (value(source).aliases >= 0) source = value(source).aliases;
    auto& target = program_->values_[static_cast<std::size_t>(outputs.at(static_cast<std::size_t>(out_index)))];
    if (target.spec != value(source).spec) {
      throw_op_error(*op, fmt::format("in-place output {} has spec {} but updates {} of spec {}",
                                      target.name, to_string(target.spec), value(source).name,
                                      to_string(value(source).spec)));
    }
    target.aliases = source;
  }
  program_->ops_.push_back(OpNode{std::move(op), inputs, outputs, tag_});
  return outputs;
}

ValueId Builder::add1(std::shared_ptr<const Op> op, const std::vector<ValueId>& inputs,
                      const std::string& output_name) {
  auto outputs = add(op, inputs, output_name.empty() ? std::vector<std::string>{}
                                                     : std::vector<std::string>{output_name});
  if (outputs.size() != 1) {
    throw_op_error(*op, fmt::format("add1 needs an op with one output, it has {}", outputs.size()));
  }
  return outputs[0];
}

void Builder::output(const std::string& name, ValueId id) {
  value(id);  // checks the id
  program_->outputs_.push_back(ProgramOutput{name, id});
}

std::shared_ptr<const Program> Builder::build() {
  if (built_) throw EngineError("Builder::build() called twice");
  built_ = true;
  Program& p = *program_;
  // Which values autograd tracks: the inputs a backward op differentiates, and everything
  // computed from them by differentiable ops (in program order, so the backward op's own inputs
  // are marked before it runs).
  for (const auto& node : p.ops_) {
    for (int index : node.op->differentiates_inputs()) {
      p.values_[static_cast<std::size_t>(node.inputs.at(static_cast<std::size_t>(index)))].requires_grad = true;
      p.trains_ = true;
    }
  }
  for (const auto& node : p.ops_) {
    if (!node.op->differentiable()) continue;
    bool any = false;
    for (ValueId id : node.inputs) any = any || p.values_[static_cast<std::size_t>(id)].requires_grad;
    for (ValueId id : node.outputs) {
      if (p.values_[static_cast<std::size_t>(id)].aliases < 0) p.values_[static_cast<std::size_t>(id)].requires_grad = any;
    }
  }
  p.id_ = next_program_id.fetch_add(1);
  return std::shared_ptr<const Program>(program_.release());
}

}  // namespace graphbench
