// An optional value as JSON: the value, or null when there is none (never 0: docs/results.md).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>

namespace graphbench {

template <typename T>
nlohmann::json json_or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace graphbench
