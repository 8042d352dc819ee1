// Helpers the workload files share: validated case parameters, the executor behind a variant.
#pragma once

#include "catalog/param_decls.h"

#include "graphbench/engine/exec/executor.h"
#include "graphbench/engine/runner/engine_runner.h"
#include "graphbench/engine/runner/reference_runner.h"
#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"
#include "graphbench/core/workload/variant.h"

#include <nlohmann/json.hpp>

#include <ATen/ATen.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace graphbench::bench {

std::int64_t param_int(const CaseSpec& spec, const char* name);
double param_number(const CaseSpec& spec, const char* name);
std::string param_string(const CaseSpec& spec, const char* name);
std::vector<std::int64_t> param_int_list(const CaseSpec& spec, const char* name);
std::vector<double> param_number_list(const CaseSpec& spec, const char* name);

// An engine runner's config: `program` by `variant`'s executor and input method, under `policy` and `scope`.
EngineRunnerConfig engine_config(const Variant& variant, std::shared_ptr<const Program> program, const Policy& policy,
                                 const CaptureScope& scope, Feed feed);

// Bytes of one element of `dtype`.
double element_size(at::ScalarType dtype);

// The `reference` variants of y = f(x): a static input copied into, then f, eagerly or captured by hand.
std::unique_ptr<VariantRunner> function_reference(const Variant& variant, const at::Tensor& input,
                                                  std::function<at::Tensor(const at::Tensor&)> f);

}  // namespace graphbench::bench
