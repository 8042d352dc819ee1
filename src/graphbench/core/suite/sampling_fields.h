// The "warmup" and "sampling" settings of a suite file: read where they are written ("defaults"
// or a case), then merged field by field into one SamplingSpec per case.
#pragma once

#include "graphbench/core/json/json_checker.h"
#include "graphbench/core/suite/suite_spec.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace graphbench {

// One setting as written: its value and its JSON pointer. `level` orders where it came from
// (1: "defaults", 2: a case) so that an inconsistency is reported at the more specific place.
struct SamplingSetting {
  double value = 0.0;
  nlohmann::json written;  // the value as written, for messages
  std::string pointer;
  int level = 0;
};

// Keyed by "warmup" or a key of the "sampling" object ("min_samples", ...).
using SamplingSettings = std::map<std::string, SamplingSetting>;

// The keys a "sampling" object may hold, in documentation order.
const std::vector<std::string>& sampling_keys();

// Reads a "sampling" object at `pointer` into `settings` (overwriting keys it sets).
void read_sampling_object(const JsonChecker& checker, const nlohmann::json& value,
                          const std::string& pointer, int level, SamplingSettings& settings);

// Reads "warmup" (a non-negative integer) into `settings`.
void read_warmup(const JsonChecker& checker, const nlohmann::json& value,
                 const std::string& pointer, int level, SamplingSettings& settings);

// SamplingSpec's built-in values, then `from_defaults`, then `from_case`, field by field; checks
// min_samples <= max_samples and min_time_s <= max_time_s on the result.
SamplingSpec merge_sampling(const JsonChecker& checker, const SamplingSettings& from_defaults,
                            const SamplingSettings& from_case);

}  // namespace graphbench
