// Capture and replay policies (docs/design.md):
//   mode       static_roles          copy_roles  why
//   inference  input, param          input       the input changes every run; captured params are used
//   train      input, param, state   input       params and state need fixed pointers but are updated
//                                                inside the graph: a feed must never overwrite them
#pragma once

#include "graphbench/engine/plan/roles.h"
#include "graphbench/core/record/record_kinds.h"

namespace graphbench {

struct Policy {
  Mode mode = Mode::kInference;
  RoleSet static_roles;  // roles whose buffers are fixed across replays
  RoleSet copy_roles;    // roles copied from the feed into their buffers before each replay

  static Policy inference() { return {Mode::kInference, {Role::kInput, Role::kParam}, {Role::kInput}}; }
  static Policy train() {
    return {Mode::kTrain, {Role::kInput, Role::kParam, Role::kState}, {Role::kInput}};
  }
};

}  // namespace graphbench
