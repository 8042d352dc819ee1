// Builds a Program: externals with roles, ops (specs inferred on the spot: a shape error names the op),
// outputs. Builder b("gelu"); b.output("y", ops::gelu_formula(b, b.input("x", spec))); b.build();
#pragma once

#include "graphbench/engine/plan/program.h"

#include <memory>
#include <string>
#include <vector>

namespace graphbench {

class Builder {
 public:
  explicit Builder(std::string name);

  ValueId input(const std::string& name, const TensorSpec& spec);
  ValueId param(const std::string& name, const TensorSpec& spec);
  // `initial_fill`: the constant a new store entry starts from (see ValueInfo::initial_fill).
  ValueId state(const std::string& name, const TensorSpec& spec, std::optional<double> initial_fill = std::nullopt);

  // Adds `op` reading `inputs`; returns its outputs (named, or "<op kind>.<n>").
  std::vector<ValueId> add(std::shared_ptr<const Op> op, const std::vector<ValueId>& inputs,
                           const std::vector<std::string>& output_names = {});
  // For ops with exactly one output.
  ValueId add1(std::shared_ptr<const Op> op, const std::vector<ValueId>& inputs,
               const std::string& output_name = "");

  void output(const std::string& name, ValueId value);

  // The tag of the ops added from now on (op_tag.h), until the next set_tag or clear_tag.
  void set_tag(OpTag tag) { tag_ = std::move(tag); }
  void clear_tag() { tag_ = OpTag{}; }

  const ValueInfo& value(ValueId id) const;
  const TensorSpec& spec(ValueId id) const { return value(id).spec; }

  // Finishes the program; the builder must not be used afterwards.
  std::shared_ptr<const Program> build();

 private:
  ValueId add_external(const std::string& name, Role role, const TensorSpec& spec,
                       std::optional<double> initial_fill = std::nullopt);
  ValueId add_value(ValueInfo info);

  std::unique_ptr<Program> program_;
  bool built_ = false;
  OpTag tag_;
};

}  // namespace graphbench
