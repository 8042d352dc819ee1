// The graph cache key: mode, plan, both role sets and the feed signature (shape, dtype, device of
// every copied value). A new signature (an epoch's short last batch) is a new entry beside the others.
#pragma once

#include "graphbench/engine/exec/feed.h"
#include "graphbench/engine/exec/policy.h"
#include "graphbench/engine/plan/compiled_program.h"

#include <string>
#include <vector>

namespace graphbench {

struct FedValueSignature {
  std::string name;
  TensorSpec spec;
  bool operator==(const FedValueSignature& o) const { return name == o.name && spec == o.spec; }
};

struct GraphKey {
  Mode mode = Mode::kInference;
  std::string plan_key;
  RoleSet static_roles;
  RoleSet copy_roles;
  std::vector<FedValueSignature> feed_signature;

  bool operator==(const GraphKey& o) const {
    return mode == o.mode && plan_key == o.plan_key && static_roles == o.static_roles &&
           copy_roles == o.copy_roles && feed_signature == o.feed_signature;
  }
  bool operator!=(const GraphKey& o) const { return !(*this == o); }
  std::string to_string() const;
};

struct GraphKeyHash {
  std::size_t operator()(const GraphKey& key) const;
};

// The key of `compiled` under `policy` on `feed`: the copied externals in order (declared where not fed).
GraphKey make_graph_key(const CompiledProgram& compiled, const Policy& policy, const Feed& feed);

}  // namespace graphbench
