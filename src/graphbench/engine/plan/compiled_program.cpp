#include "graphbench/engine/plan/compiled_program.h"

#include <fmt/format.h>

#include <functional>

namespace graphbench {

std::shared_ptr<const CompiledProgram> compile(std::shared_ptr<const Program> program) {
  auto compiled = std::shared_ptr<CompiledProgram>(new CompiledProgram());
  const Program& p = *program;
  compiled->program_ = program;

  // Slots: one per value, in-place outputs share their root's.
  compiled->slot_of_value_.assign(p.values().size(), -1);
  for (const ValueInfo& v : p.values()) {
    if (v.aliases >= 0) continue;
    compiled->slot_of_value_[static_cast<std::size_t>(v.id)] = static_cast<int>(compiled->slot_specs_.size());
    compiled->slot_specs_.push_back(v.spec);
    compiled->slot_values_.push_back({v.id});
  }
  for (const ValueInfo& v : p.values()) {
    if (v.aliases < 0) continue;
    int slot = compiled->slot_of_value_[static_cast<std::size_t>(v.aliases)];
    compiled->slot_of_value_[static_cast<std::size_t>(v.id)] = slot;
    compiled->slot_values_[static_cast<std::size_t>(slot)].push_back(v.id);
  }

  compiled->preallocated_.assign(compiled->slot_specs_.size(), false);
  std::string fingerprint = p.name();
  int index = 0;
  for (const OpNode& node : p.ops()) {
    LoweredOp lowered;
    lowered.op = node.op.get();
    lowered.label = fmt::format("#{} {}", index++, node.op->signature());
    bool input_requires_grad = false;
    for (ValueId id : node.inputs) {
      lowered.input_slots.push_back(compiled->slot_of(id));
      input_requires_grad = input_requires_grad || p.value(id).requires_grad;
    }
    for (ValueId id : node.outputs) lowered.output_slots.push_back(compiled->slot_of(id));
    for (auto [out_index, in_index] : node.op->in_place()) {
      lowered.in_place_slots.push_back(lowered.output_slots.at(static_cast<std::size_t>(out_index)));
    }
    lowered.allocates = !node.op->computes_into_outputs() || input_requires_grad;
    if (!lowered.allocates) {
      for (std::size_t i = 0; i < node.outputs.size(); ++i) {
        const ValueInfo& out = p.value(node.outputs[i]);
        if (out.aliases < 0) compiled->preallocated_[static_cast<std::size_t>(lowered.output_slots[i])] = true;
      }
    }
    fingerprint += "|" + node.op->signature();
    for (ValueId id : node.inputs) fingerprint += fmt::format(",{}", to_string(p.value(id).spec));
    compiled->ops_.push_back(std::move(lowered));
  }
  for (const ProgramOutput& out : p.outputs()) {
    compiled->output_slots_.push_back(compiled->slot_of(out.value));
  }
  compiled->plan_key_ = fmt::format("{}#{}:{:016x}", p.name(), p.id(),
                                    std::hash<std::string>{}(fingerprint));
  return compiled;
}

std::vector<TensorSpec> CompiledProgram::specs_for(
    const std::map<ValueId, TensorSpec>& external_specs) const {
  const Program& p = *program_;
  std::vector<TensorSpec> value_specs;
  value_specs.reserve(p.values().size());
  for (const ValueInfo& v : p.values()) {
    auto it = external_specs.find(v.id);
    value_specs.push_back(it != external_specs.end() ? it->second : v.spec);
  }
  for (const OpNode& node : p.ops()) {
    std::vector<TensorSpec> in;
    for (ValueId id : node.inputs) in.push_back(value_specs[static_cast<std::size_t>(id)]);
    std::vector<TensorSpec> out = node.op->infer(in);
    for (std::size_t i = 0; i < out.size(); ++i) value_specs[static_cast<std::size_t>(node.outputs[i])] = out[i];
  }
  std::vector<TensorSpec> specs(slot_specs_.size());
  for (std::size_t slot = 0; slot < slot_values_.size(); ++slot) {
    specs[slot] = value_specs[static_cast<std::size_t>(slot_values_[slot].front())];
  }
  return specs;
}

}  // namespace graphbench
