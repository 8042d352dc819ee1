// The workloads graphbench knows, each registered at static initialisation by its file with
// GRAPHBENCH_REGISTER_WORKLOAD(make_gelu_workload); the parser, runner and `graphbench list` read it.
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

// Registers `factory()`'s workload, once, at namespace scope of its file.
#define GRAPHBENCH_REGISTER_WORKLOAD(factory)                                          \
  static const bool graphbench_registered_##factory [[maybe_unused]] = [] {           \
    ::graphbench::WorkloadRegistry::global().add(factory());                           \
    return true;                                                                       \
  }()

}  // namespace graphbench
