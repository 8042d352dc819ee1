// Checks a workload's own parameters in one case (see case_settings.h).
#include "graphbench/core/suite/case_settings.h"

#include "graphbench/core/suite/suite_parser.h"

#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <limits>

namespace graphbench {

using nlohmann::json;

namespace {

constexpr std::int64_t kMaxElements = std::int64_t{1} << 60;

std::string interval(const ParamDecl& decl) { return fmt::format("[{}, {}]", decl.min, decl.max); }

// "exactly N " when the declaration fixes the length.
std::string length_text(const ParamDecl& decl) {
  return decl.length > 0 ? fmt::format("exactly {} ", decl.length) : "";
}

void check_length(const JsonChecker& checker, const json& value, const std::string& pointer, const ParamDecl& decl,
                  const std::string& what) {
  if (decl.length > 0 && value.size() != decl.length) {
    checker.fail_expected(pointer, fmt::format("a list of exactly {} {} (it has {})", decl.length, what, value.size()),
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

std::string length_words(const ParamDecl& decl, const char* items) {
  if (decl.length > 0) return fmt::format("a list of {} {}", decl.length, items);
  return fmt::format("a list of {}", items);
}

bool integer_in(const json& item, double min, double max) {
  if (!item.is_number_integer()) return false;
  if (item.is_number_unsigned() &&
      item.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return false;
  }
  const auto number = static_cast<double>(item.get<std::int64_t>());
  return number >= min && number <= max;
}

json read_int_list_in(const JsonChecker& checker, const json& value, const std::string& pointer,
                      const ParamDecl& decl) {
  const std::string items = fmt::format("integers in {}", interval(decl));
  if (!value.is_array() || (decl.length > 0 && value.size() != decl.length)) {
    checker.fail_expected(pointer, length_words(decl, items.c_str()), value);
  }
  json out = json::array();
  for (std::size_t i = 0; i < value.size(); ++i) {
    const json& item = value[i];
    if (!integer_in(item, decl.min, decl.max)) {
      checker.fail_expected(json_pointer_append(pointer, i), fmt::format("an integer in {}", interval(decl)), item);
    }
    out.push_back(item.get<std::int64_t>());
  }
  return out;
}

// Relative names are relative to the directory of the suite file that holds them (to the current
// directory for a suite read from standard input).
json read_path(const JsonChecker& checker, const json& value, const std::string& pointer) {
  const std::filesystem::path written = checker.read_non_empty_string(value, pointer);
  if (written.is_absolute()) return written.lexically_normal().string();
  if (checker.path() == kStdinName) return std::filesystem::absolute(written).lexically_normal().string();
  return (std::filesystem::path(checker.path()).parent_path() / written).lexically_normal().string();
}

json read_object_list(const JsonChecker& checker, const json& value, const std::string& pointer,
                      const ParamDecl& decl) {
  if (!value.is_array() || value.empty()) checker.fail_expected(pointer, "a non-empty list of objects", value);
  std::vector<std::string> keys;
  for (const auto& field : decl.fields) keys.push_back(field.name);
  json out = json::array();
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string item_pointer = json_pointer_append(pointer, i);
    checker.check_object(value[i], item_pointer);
    checker.check_known_keys(value[i], item_pointer, keys);
    json item = json::object();
    for (const auto& field : decl.fields) {
      const auto found = value[i].find(field.name);
      if (found != value[i].end()) {
        item[field.name] = read_param_value(checker, *found, json_pointer_append(item_pointer, field.name), field);
      } else if (!field.default_value.is_null()) {
        item[field.name] = field.default_value;
      } else if (!field.optional) {
        checker.fail(item_pointer, fmt::format("missing required key \"{}\"", field.name));
      }
    }
    out.push_back(std::move(item));
  }
  return out;
}

json read_string_list(const JsonChecker& checker, const json& value, const std::string& pointer) {
  if (!value.is_array()) checker.fail_expected(pointer, "a list of strings", value);
  json out = json::array();
  for (std::size_t i = 0; i < value.size(); ++i) out.push_back(checker.read_string(value[i], json_pointer_append(pointer, i)));
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
    case ParamType::kIntList: return read_int_list_in(checker, value, pointer, decl);
    case ParamType::kPath: return read_path(checker, value, pointer);
    case ParamType::kObjectList: return read_object_list(checker, value, pointer, decl);
    case ParamType::kStringList: return read_string_list(checker, value, pointer);
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
    } else if (decl.optional && decl.default_value.is_null()) {
      continue;  // left out: the workload picks its own default
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
