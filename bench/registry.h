// Every workload graphbench knows, registered by name in registry.cpp (one line each).
#pragma once

#include "graphbench/runner/workload.h"
#include "graphbench/workload/descriptor.h"

#include <memory>
#include <string>
#include <vector>

namespace graphbench {

// One factory per workload file.
std::unique_ptr<Workload> make_gelu_workload();
std::unique_ptr<Workload> make_linear_dropout_workload();
std::unique_ptr<Workload> make_mnist_workload();
std::unique_ptr<Workload> make_torchscript_workload();
std::unique_ptr<Workload> make_aoti_workload();

const std::vector<const Workload*>& all_workloads();
std::vector<WorkloadDescriptor> workload_descriptors();
// nullptr when there is none of that name.
const Workload* find_workload(const std::string& name);

}  // namespace graphbench
