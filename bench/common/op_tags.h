// The tags the built-in workloads put on their ops, what the capture scopes (docs/scopes.md) cut by.
#pragma once

#include "graphbench/engine/plan/op_tag.h"

#include <string>

namespace graphbench::bench {

// Ops of module `module`, in repeated block `layer` (-1: outside any).
inline OpTag module_tag(std::string module, int layer = -1) {
  OpTag tag;
  tag.module = std::move(module);
  tag.layer = layer;
  return tag;
}

// The optimizer's update: eager under the fwd-bwd scope.
inline OpTag optimizer_tag() {
  OpTag tag = module_tag("optimizer");
  tag.optimizer = true;
  return tag;
}

}  // namespace graphbench::bench
