// A compiled program: ops lowered to slots, a spec per slot, the alias map (in place: one slot).
#pragma once

#include "graphbench/engine/plan/program.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace graphbench {

struct LoweredOp {
  const Op* op = nullptr;
  std::vector<int> input_slots;
  std::vector<int> output_slots;
  // Outputs computed by the op (autograd records it, or no `_out` form), not into preallocated slots.
  bool allocates = true;
  std::vector<int> in_place_slots;  // output slots updated in place (shared with an input)
  std::string label;  // "#3 dropout(p=0.2)", for messages
};

class CompiledProgram {
 public:
  const Program& program() const { return *program_; }
  // Identity of the plan: the program's id and a fingerprint of its ops and specs.
  const std::string& plan_key() const { return plan_key_; }
  const std::vector<LoweredOp>& ops() const { return ops_; }
  std::size_t num_slots() const { return slot_specs_.size(); }
  int slot_of(ValueId id) const { return slot_of_value_.at(static_cast<std::size_t>(id)); }
  // Specs for the declared external specs.
  const std::vector<TensorSpec>& slot_specs() const { return slot_specs_; }
  // The values sharing each slot (size > 1 for alias groups), first the root.
  const std::vector<std::vector<ValueId>>& slot_values() const { return slot_values_; }
  // Slots that executors with fixed buffers allocate up front (internals computed into).
  const std::vector<bool>& preallocated() const { return preallocated_; }
  const std::vector<int>& output_slots() const { return output_slots_; }

  // Slot specs for other external specs (an epoch's short last batch), every op inferred again.
  std::vector<TensorSpec> specs_for(const std::map<ValueId, TensorSpec>& external_specs) const;

 private:
  friend std::shared_ptr<const CompiledProgram> compile(std::shared_ptr<const Program>);
  std::shared_ptr<const Program> program_;
  std::string plan_key_;
  std::vector<LoweredOp> ops_;
  std::vector<int> slot_of_value_;
  std::vector<TensorSpec> slot_specs_;
  std::vector<std::vector<ValueId>> slot_values_;
  std::vector<bool> preallocated_;
  std::vector<int> output_slots_;
};

// Compiles without caching. Executors never call this: they go through CompileCache.
std::shared_ptr<const CompiledProgram> compile(std::shared_ptr<const Program> program);

}  // namespace graphbench
