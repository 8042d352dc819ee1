#include "graphbench/engine/runner/workload_registry.h"

#include <algorithm>
#include <stdexcept>

namespace graphbench {

WorkloadRegistry& WorkloadRegistry::global() {
  static WorkloadRegistry registry;
  return registry;
}

void WorkloadRegistry::add(std::unique_ptr<Workload> workload) {
  const std::string& name = workload->descriptor().name;
  if (find(name) != nullptr) throw std::logic_error("workload \"" + name + "\" is registered twice");
  workloads_.push_back(std::move(workload));
}

const Workload* WorkloadRegistry::find(const std::string& name) const {
  for (const auto& w : workloads_) {
    if (w->descriptor().name == name) return w.get();
  }
  return nullptr;
}

std::vector<const Workload*> WorkloadRegistry::all() const {
  std::vector<const Workload*> out;
  for (const auto& w : workloads_) out.push_back(w.get());
  std::sort(out.begin(), out.end(),
            [](const Workload* a, const Workload* b) { return a->descriptor().name < b->descriptor().name; });
  return out;
}

std::vector<WorkloadDescriptor> WorkloadRegistry::descriptors() const {
  std::vector<WorkloadDescriptor> out;
  for (const Workload* w : all()) out.push_back(w->descriptor());
  return out;
}

}  // namespace graphbench
