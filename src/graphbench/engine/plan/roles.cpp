#include "graphbench/engine/plan/roles.h"

namespace graphbench {

const char* to_string(Role role) {
  switch (role) {
    case Role::kInput: return "input";
    case Role::kParam: return "param";
    case Role::kState: return "state";
  }
  return "?";
}

std::string to_string(RoleSet roles) {
  std::string out = "{";
  for (Role r : {Role::kInput, Role::kParam, Role::kState}) {
    if (!roles.contains(r)) continue;
    if (out.size() > 1) out += ", ";
    out += to_string(r);
  }
  return out + "}";
}

}  // namespace graphbench
