// What each workload declares about itself (its modes, kinds, variants, dtypes, parameters and
// their rules, sweep axes), without LibTorch: the workload files (bench/*.cpp) register their cases
// with these descriptors, and graphbench's front checks a suite against the catalog before it hands
// the run to graphbench-run, so that a bad suite is refused without loading LibTorch.
#pragma once

#include "graphbench/core/workload/descriptor.h"

#include <vector>

namespace graphbench {

WorkloadDescriptor gelu_descriptor();
WorkloadDescriptor linear_dropout_descriptor();
WorkloadDescriptor mnist_descriptor();
WorkloadDescriptor one_kernel_descriptor();
WorkloadDescriptor early_exit_descriptor();
WorkloadDescriptor torchscript_descriptor();
WorkloadDescriptor aoti_descriptor();
WorkloadDescriptor torchscript_branches_descriptor();

// Every workload's descriptor, sorted by name (as WorkloadRegistry::descriptors() lists them).
const std::vector<WorkloadDescriptor>& workload_catalog();

}  // namespace graphbench
