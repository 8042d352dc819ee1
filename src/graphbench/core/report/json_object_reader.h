// Typed access to the keys of one JSON object of a results file (json_reader.cpp): every error is an
// InputError naming the file and the JSON pointer, "<file>: <pointer>: expected <what>, got <value>".
// Absent keys read as their default; null reads as "no value" where the key is optional.
#pragma once

#include "graphbench/core/json/json_checker.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

class ObjectReader : public JsonChecker {
 public:
  ObjectReader(const std::string& file, const nlohmann::json& value, std::string pointer)
      : JsonChecker(file), value_(value), pointer_(std::move(pointer)) {
    check_object(value_, pointer_);
  }

  std::string pointer(const std::string& key) const { return json_pointer_append(pointer_, key); }

  // The value of `key`, or nullptr when absent (InputError when absent and required).
  const nlohmann::json* find(const std::string& key, bool required = false) const {
    const auto it = value_.find(key);
    if (it != value_.end()) return &*it;
    if (required) fail(pointer_, fmt::format("missing required key \"{}\"", key));
    return nullptr;
  }
  // Present and not null.
  const nlohmann::json* find_value(const std::string& key) const {
    const nlohmann::json* v = find(key);
    return v && !v->is_null() ? v : nullptr;
  }
  ObjectReader object(const std::string& key) const { return {path(), *find(key), pointer(key)}; }
  // A reader for each element of the array at `key` (none when absent or null); InputError naming
  // `what` ("an array of kernels") when it is not an array.
  std::vector<ObjectReader> objects(const std::string& key, const char* what) const {
    std::vector<ObjectReader> out;
    const nlohmann::json* v = find_value(key);
    if (!v) return out;
    if (!v->is_array()) fail_expected(pointer(key), what, *v);
    for (std::size_t i = 0; i < v->size(); ++i) out.emplace_back(path(), (*v)[i], json_pointer_append(pointer(key), i));
    return out;
  }

  std::string string(const std::string& key, bool required = false) const {
    const nlohmann::json* v = find(key, required);
    if (!v) return {};
    if (!v->is_string()) fail_expected(pointer(key), "a string", *v);
    return v->get<std::string>();
  }

  double number_at(const nlohmann::json& v, const std::string& pointer, const char* what) const {
    if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
    if (!v.is_number()) fail_expected(pointer, what, v);
    return v.get<double>();
  }
  // A number; null reads as NaN (non-finite numbers are written as null).
  double number(const std::string& key) const {
    const nlohmann::json* v = find(key);
    return v ? number_at(*v, pointer(key), "a number") : 0.0;
  }
  std::optional<double> optional_number(const std::string& key) const {
    const nlohmann::json* v = find_value(key);
    if (!v) return std::nullopt;
    if (!v->is_number()) fail_expected(pointer(key), "a number or null", *v);
    return v->get<double>();
  }

  std::int64_t integer_at(const nlohmann::json& v, const std::string& pointer, std::int64_t min,
                          std::int64_t max, const std::string& what) const {
    const bool fits =
        v.is_number_unsigned()
            ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(max) &&
                  (min <= 0 || v.get<std::uint64_t>() >= static_cast<std::uint64_t>(min))
            : v.is_number_integer() && v.get<std::int64_t>() >= min && v.get<std::int64_t>() <= max;
    if (!fits) fail_expected(pointer, what, v);
    return v.get<std::int64_t>();
  }
  std::int64_t integer(const std::string& key, std::int64_t min = 0,
                       std::int64_t max = std::numeric_limits<std::int64_t>::max(),
                       const std::string& what = "a non-negative integer") const {
    const nlohmann::json* v = find(key);
    return v ? integer_at(*v, pointer(key), min, max, what) : 0;
  }
  // A non-negative integer (at most `max`), or nullopt when absent or null.
  std::optional<std::int64_t> optional_integer(const std::string& key,
                                               std::int64_t max = std::numeric_limits<std::int64_t>::max()) const {
    const nlohmann::json* v = find_value(key);
    if (!v) return std::nullopt;
    return integer_at(*v, pointer(key), 0, max, "a non-negative integer or null");
  }

  std::optional<bool> optional_bool(const std::string& key) const {
    const nlohmann::json* v = find_value(key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) fail_expected(pointer(key), "true, false or null", *v);
    return v->get<bool>();
  }

  std::vector<double> numbers(const std::string& key) const {
    std::vector<double> out;
    const nlohmann::json* v = find(key);
    if (!v) return out;
    if (!v->is_array()) fail_expected(pointer(key), "an array of numbers", *v);
    for (std::size_t i = 0; i < v->size(); ++i) {
      out.push_back(number_at((*v)[i], json_pointer_append(pointer(key), i), "a number"));
    }
    return out;
  }

  std::vector<std::string> strings(const std::string& key) const {
    std::vector<std::string> out;
    const nlohmann::json* v = find(key);
    if (!v) return out;
    if (!v->is_array()) fail_expected(pointer(key), "an array of strings", *v);
    for (std::size_t i = 0; i < v->size(); ++i) {
      if (!(*v)[i].is_string()) fail_expected(json_pointer_append(pointer(key), i), "a string", (*v)[i]);
      out.push_back((*v)[i].get<std::string>());
    }
    return out;
  }

 private:
  const nlohmann::json& value_;
  std::string pointer_;
};

}  // namespace graphbench
