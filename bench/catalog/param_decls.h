// Parameter declarations of a workload's descriptor (graphbench/core/workload/descriptor.h).
#pragma once

#include "graphbench/core/workload/descriptor.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace graphbench::bench {

// typed_param's default nullptr: none.
ParamDecl typed_param(const char* name, ParamType type, nlohmann::json default_value, const char* help);
// An optional parameter, without a default.
ParamDecl optional_param(const char* name, ParamType type, const char* help);
ParamDecl int_param(const char* name, std::int64_t default_value, const char* help);
ParamDecl number_param(const char* name, double default_value, double min, double max, const char* help);
ParamDecl choice_param(const char* name, const char* default_value, std::vector<std::string> choices, const char* help);

}  // namespace graphbench::bench
