// A program: values and ops, built once; what comes from outside is an external with a role.
#pragma once

#include "graphbench/engine/plan/op.h"
#include "graphbench/engine/plan/op_tag.h"
#include "graphbench/engine/plan/roles.h"
#include "graphbench/engine/plan/tensor_spec.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

using ValueId = int;

struct ValueInfo {
  ValueId id = -1;
  std::string name;          // unique within the program; externals are fed by this name
  std::optional<Role> role;  // set for externals only
  TensorSpec spec;           // declared (externals) or inferred (internals)
  ValueId aliases = -1;      // for in-place outputs: the value whose slot this one updates
  bool requires_grad = false;
  // Params and state: a new store entry's fill where neither store nor feed has one (zero moments, lr).
  std::optional<double> initial_fill;
};

struct OpNode {
  std::shared_ptr<const Op> op;
  std::vector<ValueId> inputs;
  std::vector<ValueId> outputs;
  OpTag tag;  // where the op sits in its model: what a capture scope splits by
};

struct ProgramOutput {
  std::string name;
  ValueId value = -1;
};

class Program {
 public:
  // Unique per built program within the process: the identity compile_cached keys on.
  std::uint64_t id() const { return id_; }
  const std::string& name() const { return name_; }
  const std::vector<ValueInfo>& values() const { return values_; }
  const ValueInfo& value(ValueId id) const { return values_.at(static_cast<std::size_t>(id)); }
  const std::vector<OpNode>& ops() const { return ops_; }
  const std::vector<ProgramOutput>& outputs() const { return outputs_; }
  const std::vector<ValueId>& external_vids() const { return external_vids_; }
  // True when the program differentiates (has a backward op): it runs with grad mode on.
  bool trains() const { return trains_; }
  // The external whose name is `name`, or nullptr.
  const ValueInfo* find_external(const std::string& name) const;

 private:
  friend class Builder;
  std::uint64_t id_ = 0;
  std::string name_;
  std::vector<ValueInfo> values_;
  std::vector<OpNode> ops_;
  std::vector<ProgramOutput> outputs_;
  std::vector<ValueId> external_vids_;
  bool trains_ = false;
};

}  // namespace graphbench
