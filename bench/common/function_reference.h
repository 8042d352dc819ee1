// The `reference` variants of an inference workload y = f(x): plain LibTorch with a static input
// that every step copies the case's input into, then f, eagerly or captured by hand
// (at::cuda::CUDAGraph, as the blog writes it).
#pragma once

#include "graphbench/engine/runner/reference_runner.h"
#include "graphbench/core/workload/variant.h"

#include <ATen/ATen.h>

#include <functional>
#include <memory>

namespace graphbench::bench {

std::unique_ptr<VariantRunner> function_reference(const Variant& variant, const at::Tensor& input,
                                                  std::function<at::Tensor(const at::Tensor&)> f);

}  // namespace graphbench::bench
