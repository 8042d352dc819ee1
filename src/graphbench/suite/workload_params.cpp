// Checks a workload's own parameters in one case (see workload_params.h).
#include "graphbench/suite/workload_params.h"

#include <fmt/format.h>

namespace graphbench {

using nlohmann::json;

namespace {

std::string interval(const ParamDecl& decl) { return fmt::format("[{}, {}]", decl.min, decl.max); }

json read_int_list(const JsonChecker& checker, const json& value, const std::string& pointer) {
  if (!value.is_array() || value.empty()) {
    checker.fail_expected(pointer, "a non-empty list of positive integers", value);
  }
  json out = json::array();
  for (std::size_t i = 0; i < value.size(); ++i) {
    out.push_back(checker.read_positive_int(value[i], json_pointer_append(pointer, i)));
  }
  return out;
}

json read_number_list(const JsonChecker& checker, const json& value, const std::string& pointer,
                      const ParamDecl& decl) {
  if (!value.is_array()) {
    checker.fail_expected(pointer, fmt::format("a list of numbers in {}", interval(decl)), value);
  }
  json out = json::array();
  for (std::size_t i = 0; i < value.size(); ++i) {
    out.push_back(
        checker.read_number_in(value[i], json_pointer_append(pointer, i), decl.min, decl.max));
  }
  return out;
}

}  // namespace

json read_param_value(const JsonChecker& checker, const json& value, const std::string& pointer,
                      const ParamDecl& decl) {
  switch (decl.type) {
    case ParamType::kPositiveInt: return checker.read_positive_int(value, pointer);
    case ParamType::kPositiveIntList: return read_int_list(checker, value, pointer);
    case ParamType::kNumber: return checker.read_number_in(value, pointer, decl.min, decl.max);
    case ParamType::kNumberList: return read_number_list(checker, value, pointer, decl);
    case ParamType::kString:
      if (decl.choices.empty()) return checker.read_string(value, pointer);
      return checker.read_choice(value, pointer, decl.choices);
    case ParamType::kBool: return checker.read_bool(value, pointer);
  }
  checker.fail(pointer, "parameter of an unknown type");
}

json read_workload_params(const JsonChecker& checker, const json& case_object,
                          const std::string& case_pointer, const WorkloadDescriptor& workload) {
  json params = json::object();
  for (const auto& decl : workload.params) {
    const auto found = case_object.find(decl.name);
    if (found != case_object.end()) {
      params[decl.name] =
          read_param_value(checker, *found, json_pointer_append(case_pointer, decl.name), decl);
    } else if (decl.default_value.is_null()) {
      checker.fail(case_pointer,
                   fmt::format("missing required key \"{}\" (a parameter of workload \"{}\")",
                               decl.name, workload.name));
    } else {
      params[decl.name] = decl.default_value;
    }
  }
  return params;
}

}  // namespace graphbench
