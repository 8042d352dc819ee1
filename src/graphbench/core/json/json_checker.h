// Typed readers for the values of a JSON file (a suite, a results file). Each checks one JSON value and, when it is not what
// was expected, throws InputError as "<file>: <JSON pointer>: expected <what>, got <value>".
#pragma once

#include "graphbench/core/json/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace graphbench {

// Reads values of one file; every error names that file.
class JsonChecker {
 public:
  explicit JsonChecker(std::string path) : path_(std::move(path)) {}

  const std::string& path() const { return path_; }

  // "<file>: <pointer>: <message>" (the pointer is left out when it is the root, "").
  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const;
  // "<file>: <pointer>: expected <what>, got <value as JSON>"
  [[noreturn]] void fail_expected(const std::string& pointer, const std::string& what,
                                  const nlohmann::json& got) const;

  // Throws "unknown key (expected one of: ...)" for the first key of `object` not in `allowed`.
  void check_known_keys(const nlohmann::json& object, const std::string& pointer,
                        const std::vector<std::string>& allowed) const;
  // Throws "missing required key "<key>"" at `pointer` when `object` lacks `key`.
  void check_required_key(const nlohmann::json& object, const std::string& pointer,
                          const std::string& key) const;

  void check_object(const nlohmann::json& value, const std::string& pointer) const;
  std::string read_string(const nlohmann::json& value, const std::string& pointer) const;
  std::string read_non_empty_string(const nlohmann::json& value, const std::string& pointer) const;
  // One of `choices`: "expected one of "a", "b", got ...".
  std::string read_choice(const nlohmann::json& value, const std::string& pointer,
                          const std::vector<std::string>& choices) const;
  bool read_bool(const nlohmann::json& value, const std::string& pointer) const;

  // An integer (not 3.0) in [min, max]; `what` names it ("a positive integer").
  std::int64_t read_integer(const nlohmann::json& value, const std::string& pointer,
                            std::int64_t min, std::int64_t max, const std::string& what) const;
  std::int64_t read_positive_int(const nlohmann::json& value, const std::string& pointer) const;

  double read_positive_number(const nlohmann::json& value, const std::string& pointer) const;
  // A number in the closed interval [min, max].
  double read_number_in(const nlohmann::json& value, const std::string& pointer, double min,
                        double max) const;

 private:
  std::string path_;
};

}  // namespace graphbench
