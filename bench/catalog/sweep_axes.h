// The sweep axes the workloads share (docs/spec.md, "Sweeps"): a swept value into a case's parameters.
#pragma once

#include "graphbench/core/workload/descriptor.h"

namespace graphbench::bench {

// "batch" written into the integer parameter `param` ("batch": the rows of a step).
SweepAxis batch_param_axis(const char* param);
// "batch" as the first dimension of the shape parameter `param` (GELU's input).
SweepAxis batch_of_shape_axis(const char* param);
// The model workloads' axes: "batch" (dim 0 of batched inputs, {batch} in `path`), "pos" (the
// "position" input's range) and "cache" (dim 2 of every state input: the KV cache's length).
std::vector<SweepAxis> model_sweep_axes();

}  // namespace graphbench::bench
