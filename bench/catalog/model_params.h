// What the model workloads (torchscript, aoti, torchscript_branches) declare: a model file's
// parameters, its inputs and tolerances, and the rules between them (models/model_case.h runs them).
#pragma once

#include "graphbench/core/workload/descriptor.h"
#include "graphbench/core/workload/variant.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace graphbench::bench {

// `path` (a file relative to the suite file) and `inputs` ([{shape, dtype, range}]).
ParamDecl model_path_param(const char* help);
ParamDecl model_inputs_param();
// `rtol` and `atol` of the comparison with eager; left out, they follow the case's dtype.
std::vector<ParamDecl> tolerance_params();
// `read_bytes`: the bytes a step must read at least (scripts/export_model.py writes it).
ParamDecl read_bytes_param();
// A model workload's descriptor: modes inference and train, the floating dtypes, the model sweep
// axes, and the parameters path, inputs, `own`, the tolerances and read_bytes, in that order.
WorkloadDescriptor model_descriptor(const char* name, const char* summary, std::vector<Variant> variants,
                                   const char* path_help, std::vector<ParamDecl> own);
// The rules between the fields of `inputs` (`range` for int64 inputs only, low < high; state fields).
std::optional<ParamProblem> check_model_inputs(const nlohmann::json& params);
// Role state goes with inference of one whole model only; `what` names the case's form ("mode train").
std::optional<ParamProblem> check_no_state_inputs(const nlohmann::json& params, const std::string& what);

}  // namespace graphbench::bench
