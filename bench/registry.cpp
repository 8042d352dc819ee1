#include "registry.h"

namespace graphbench {

namespace {
std::vector<std::unique_ptr<Workload>> make_all() {
  std::vector<std::unique_ptr<Workload>> all;
  all.push_back(make_gelu_workload());
  all.push_back(make_linear_dropout_workload());
  all.push_back(make_mnist_workload());
  all.push_back(make_torchscript_workload());
  all.push_back(make_aoti_workload());
  return all;
}
}  // namespace

const std::vector<const Workload*>& all_workloads() {
  static const std::vector<std::unique_ptr<Workload>> owned = make_all();
  static const std::vector<const Workload*> view = [] {
    std::vector<const Workload*> v;
    for (const auto& w : owned) v.push_back(w.get());
    return v;
  }();
  return view;
}

std::vector<WorkloadDescriptor> workload_descriptors() {
  std::vector<WorkloadDescriptor> out;
  for (const Workload* w : all_workloads()) out.push_back(w->descriptor());
  return out;
}

const Workload* find_workload(const std::string& name) {
  for (const Workload* w : all_workloads()) {
    if (w->descriptor().name == name) return w;
  }
  return nullptr;
}

}  // namespace graphbench
