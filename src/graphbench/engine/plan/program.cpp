#include "graphbench/engine/plan/program.h"

namespace graphbench {

const ValueInfo* Program::find_external(const std::string& name) const {
  for (ValueId id : external_vids_) {
    if (values_[static_cast<std::size_t>(id)].name == name) return &values_[static_cast<std::size_t>(id)];
  }
  return nullptr;
}

}  // namespace graphbench
