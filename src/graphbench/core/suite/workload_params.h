// Checks the parameters a workload declares (WorkloadDescriptor::params) in one case of a suite
// file, by their ParamType, and returns them with the defaults filled in.
#pragma once

#include "graphbench/core/json/json_checker.h"
#include "graphbench/core/workload/descriptor.h"

#include <nlohmann/json.hpp>

#include <string>

namespace graphbench {

// `case_object` is the case as written, `case_pointer` its place ("/cases/3"). Keys that are not
// parameters of `workload` are ignored here (the caller rejects unknown keys). Throws InputError.
nlohmann::json read_workload_params(const JsonChecker& checker, const nlohmann::json& case_object,
                                    const std::string& case_pointer,
                                    const WorkloadDescriptor& workload);

// One parameter's value, checked by its declaration; returns the value as stored in
// CaseSpec::params (integers as integers, numbers as doubles).
nlohmann::json read_param_value(const JsonChecker& checker, const nlohmann::json& value,
                                const std::string& pointer, const ParamDecl& decl);

}  // namespace graphbench
