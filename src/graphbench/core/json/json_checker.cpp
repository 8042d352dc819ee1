// Typed readers for the values of a JSON file (see json_checker.h).
#include "graphbench/core/json/json_checker.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

#include <limits>

namespace graphbench {

using nlohmann::json;

void JsonChecker::fail(const std::string& pointer, const std::string& message) const {
  if (pointer.empty()) throw InputError(fmt::format("{}: {}", path_, message));
  throw InputError(fmt::format("{}: {}: {}", path_, pointer, message));
}

void JsonChecker::fail_expected(const std::string& pointer, const std::string& what,
                                const json& got) const {
  fail(pointer, fmt::format("expected {}, got {}", what, json_for_message(got)));
}

void JsonChecker::check_known_keys(const json& object, const std::string& pointer,
                                   const std::vector<std::string>& allowed) const {
  for (const auto& item : object.items()) {
    if (!contains_name(allowed, item.key())) {
      fail(json_pointer_append(pointer, item.key()),
           fmt::format("unknown key (expected one of: {})", join_names(allowed)));
    }
  }
}

void JsonChecker::check_required_key(const json& object, const std::string& pointer,
                                     const std::string& key) const {
  if (!object.contains(key)) fail(pointer, fmt::format("missing required key \"{}\"", key));
}

void JsonChecker::check_object(const json& value, const std::string& pointer) const {
  if (!value.is_object()) fail_expected(pointer, "an object", value);
}

std::string JsonChecker::read_string(const json& value, const std::string& pointer) const {
  if (!value.is_string()) fail_expected(pointer, "a string", value);
  return value.get<std::string>();
}

std::string JsonChecker::read_non_empty_string(const json& value,
                                               const std::string& pointer) const {
  if (!value.is_string() || value.get_ref<const std::string&>().empty()) {
    fail_expected(pointer, "a non-empty string", value);
  }
  return value.get<std::string>();
}

std::string JsonChecker::read_choice(const json& value, const std::string& pointer,
                                     const std::vector<std::string>& choices) const {
  if (value.is_string() && contains_name(choices, value.get_ref<const std::string&>())) {
    return value.get<std::string>();
  }
  std::string quoted;
  for (const auto& choice : choices) {
    if (!quoted.empty()) quoted += ", ";
    quoted += json(choice).dump();
  }
  fail_expected(pointer, fmt::format("one of {}", quoted), value);
}

bool JsonChecker::read_bool(const json& value, const std::string& pointer) const {
  if (!value.is_boolean()) fail_expected(pointer, "true or false", value);
  return value.get<bool>();
}

std::int64_t JsonChecker::read_integer(const json& value, const std::string& pointer,
                                       std::int64_t min, std::int64_t max,
                                       const std::string& what) const {
  if (!value.is_number_integer()) fail_expected(pointer, what, value);
  if (value.is_number_unsigned() &&
      value.get<std::uint64_t>() >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    fail_expected(pointer, fmt::format("{} no larger than {}", what, max), value);
  }
  const auto number = value.get<std::int64_t>();
  if (number < min) fail_expected(pointer, what, value);
  if (number > max) fail_expected(pointer, fmt::format("{} no larger than {}", what, max), value);
  return number;
}

std::int64_t JsonChecker::read_positive_int(const json& value, const std::string& pointer) const {
  return read_integer(value, pointer, 1, std::numeric_limits<std::int64_t>::max(),
                      "a positive integer");
}

double JsonChecker::read_positive_number(const json& value, const std::string& pointer) const {
  if (!value.is_number() || !(value.get<double>() > 0.0)) {
    fail_expected(pointer, "a positive number", value);
  }
  return value.get<double>();
}

double JsonChecker::read_number_in(const json& value, const std::string& pointer, double min,
                                   double max) const {
  if (!value.is_number() || value.get<double>() < min || value.get<double>() > max) {
    fail_expected(pointer, fmt::format("a number in [{}, {}]", min, max), value);
  }
  return value.get<double>();
}

}  // namespace graphbench
