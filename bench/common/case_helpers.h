// Helpers the workload files share: validated case parameters, the executor behind a variant.
#pragma once

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

// Parameter declarations; typed_param's default nullptr: none.
ParamDecl typed_param(const char* name, ParamType type, nlohmann::json default_value, const char* help);
// An optional parameter, without a default.
ParamDecl optional_param(const char* name, ParamType type, const char* help);
ParamDecl int_param(const char* name, std::int64_t default_value, const char* help);
ParamDecl number_param(const char* name, double default_value, double min, double max, const char* help);
ParamDecl choice_param(const char* name, const char* default_value, std::vector<std::string> choices, const char* help);

// An engine runner's config: `program` by `variant`'s executor and input method, under `policy` and `scope`.
EngineRunnerConfig engine_config(const Variant& variant, std::shared_ptr<const Program> program, const Policy& policy,
                                 const CaptureScope& scope, Feed feed);

// Bytes of one element of `dtype`.
double element_size(at::ScalarType dtype);

// The `reference` variants of y = f(x): a static input copied into, then f, eagerly or captured by hand.
std::unique_ptr<VariantRunner> function_reference(const Variant& variant, const at::Tensor& input,
                                                  std::function<at::Tensor(const at::Tensor&)> f);

}  // namespace graphbench::bench
