// The workloads graphbench knows. Each workload file registers itself once, at static
// initialisation, with GRAPHBENCH_REGISTER_WORKLOAD; the suite parser (through descriptors()), the
// runner and `graphbench list` all read this one registry.
//
//   std::unique_ptr<Workload> make_gelu_workload();
//   GRAPHBENCH_REGISTER_WORKLOAD(make_gelu_workload);
#pragma once

#include "graphbench/engine/runner/workload.h"
#include "graphbench/core/workload/descriptor.h"

#include <memory>
#include <string>
#include <vector>

namespace graphbench {

class WorkloadRegistry {
 public:
  // The process-wide registry the workload files register into.
  static WorkloadRegistry& global();

  // Adds `workload`; std::logic_error when one of the same name is registered already.
  void add(std::unique_ptr<Workload> workload);
  // nullptr when there is none of that name.
  const Workload* find(const std::string& name) const;
  // Every workload, sorted by name.
  std::vector<const Workload*> all() const;
  std::vector<WorkloadDescriptor> descriptors() const;

 private:
  std::vector<std::unique_ptr<Workload>> workloads_;
};

// Registers the workload `factory()` makes in WorkloadRegistry::global(). Use once per workload,
// at namespace scope of the workload's file.
#define GRAPHBENCH_REGISTER_WORKLOAD(factory)                                          \
  static const bool graphbench_registered_##factory [[maybe_unused]] = [] {           \
    ::graphbench::WorkloadRegistry::global().add(factory());                           \
    return true;                                                                       \
  }()

}  // namespace graphbench
