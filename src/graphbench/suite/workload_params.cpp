// Checks a workload's own parameters in one case (see workload_params.h).
#include "graphbench/suite/workload_params.h"

#include <fmt/format.h>

#include <cstdint>
#include <limits>

namespace graphbench {

using nlohmann::json;

namespace {

constexpr std::int64_t kMaxElements = std::int64_t{1} << 60;

std::string interval(const ParamDecl& decl) { return fmt::format("[{}, {}]", decl.min, decl.max); }

// "exactly N " when the declaration fixes the length.
std::string length_text(const ParamDecl& decl) {
  return decl.list_length > 0 ? fmt::format("exactly {} ", decl.list_length) : "";
}

void check_length(const JsonChecker& checker, const json& value, const std::string& pointer, const ParamDecl& decl,
                  const std::string& what) {
  if (decl.list_length > 0 && value.size() != decl.list_length) {
    checker.fail_expected(pointer, fmt::format("a list of exactly {} {} (it has {})", decl.list_length, what, value.size()),
                          value);
  }
}

json read_int_list(const JsonChecker& checker, const json& value, const std::string& pointer, const ParamDecl& decl) {
  if (!value.is_array() || value.empty()) {
    checker.fail_expected(pointer, fmt::format("a non-empty list of {}positive integers", length_text(decl)), value);
  }
  check_length(checker, value, pointer, decl, "positive integers");
  json out = json::array();
  std::int64_t product = 1;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::int64_t item = checker.read_positive_int(value[i], json_pointer_append(pointer, i));
    // A shape whose size in bytes (at most 8 per element) does not fit 64 bits can never be
    // allocated: bad input now, not a failure when the case is set up.
    if (product > kMaxElements / item) {
      checker.fail_expected(pointer, "positive integers whose product (the element count) is at most 2^60", value);
    }
    product *= item;
    out.push_back(item);
  }
  return out;
}

json read_number_list(const JsonChecker& checker, const json& value, const std::string& pointer,
                      const ParamDecl& decl) {
  if (!value.is_array()) {
    checker.fail_expected(pointer, fmt::format("a list of {}numbers in {}", length_text(decl), interval(decl)), value);
  }
  check_length(checker, value, pointer, decl, fmt::format("numbers in {}", interval(decl)));
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
    case ParamType::kPositiveIntList: return read_int_list(checker, value, pointer, decl);
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
