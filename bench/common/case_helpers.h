// Small helpers the workload files share: reading validated case parameters, and the executor
// and program flavour behind each variant name.
#pragma once

#include "graphbench/engine/exec/executor.h"
#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"
#include "graphbench/core/workload/variant.h"

#include <nlohmann/json.hpp>

#include <ATen/ATen.h>

#include <string>
#include <vector>

namespace graphbench::bench {

std::int64_t param_int(const CaseSpec& spec, const char* name);
double param_number(const CaseSpec& spec, const char* name);
std::string param_string(const CaseSpec& spec, const char* name);
std::vector<std::int64_t> param_int_list(const CaseSpec& spec, const char* name);
std::vector<double> param_number_list(const CaseSpec& spec, const char* name);

// Parameter declarations of a workload descriptor.
// A parameter of any type with its default (nullptr: none) and help.
ParamDecl typed_param(const char* name, ParamType type, nlohmann::json default_value, const char* help);
ParamDecl int_param(const char* name, std::int64_t default_value, const char* help);
ParamDecl number_param(const char* name, double default_value, double min, double max, const char* help);
ParamDecl choice_param(const char* name, const char* default_value, std::vector<std::string> choices, const char* help);

// The engine executor that runs `variant`'s steps.
ExecutorKind executor_for(const Variant& variant);

// Bytes of one element of `dtype`.
double element_size(at::ScalarType dtype);

}  // namespace graphbench::bench
