// An optional value as JSON: the value, or null when there is none (never 0: docs/results.md); a
// number that is not finite (NaN, infinity: JSON has neither) is null too.
#pragma once

#include "graphbench/core/stats/statistics.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>

namespace graphbench {

template <typename T>
nlohmann::json json_or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

inline nlohmann::json number_or_null(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

inline nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? number_or_null(*value) : nlohmann::json(nullptr);
}

// [low, high], or null when there is no interval.
inline nlohmann::json interval_or_null(const std::optional<stats::Interval>& i) {
  return i ? nlohmann::json::array({number_or_null(i->low), number_or_null(i->high)}) : nlohmann::json(nullptr);
}

}  // namespace graphbench
