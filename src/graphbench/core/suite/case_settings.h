// The settings of one case of a suite file, internal to the suite parser: those it may inherit
// from "defaults" (kind, mode, dtype, variants, "warmup" and "sampling"), read where they are
// written and resolved against what its workload declares; and the workload's own parameters.
#pragma once

#include "graphbench/core/json/json_checker.h"
#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// A setting as written: its value, the JSON it came from (for messages) and where.
template <typename T>
struct WrittenSetting {
  T value;
  nlohmann::json written;
  std::string pointer;
  bool from_defaults = false;
};

// Keyed by "warmup" or a key of the "sampling" object ("min_samples", ...).
using SamplingSettings = std::map<std::string, WrittenSetting<double>>;

// Reads a "sampling" object at `pointer` into `settings` (overwriting keys it sets).
void read_sampling_object(const JsonChecker& checker, const nlohmann::json& value,
                          const std::string& pointer, bool from_defaults, SamplingSettings& settings);

// Reads "warmup" (a non-negative integer) into `settings`.
void read_warmup(const JsonChecker& checker, const nlohmann::json& value,
                 const std::string& pointer, bool from_defaults, SamplingSettings& settings);

// SamplingSpec's built-in values, then `from_defaults`, then `from_case`, field by field; checks
// min_samples <= max_samples and min_time_s <= max_time_s on the result, reporting at the more
// specific place.
SamplingSpec merge_sampling(const JsonChecker& checker, const SamplingSettings& from_defaults,
                            const SamplingSettings& from_case);

struct CommonSettings {
  std::optional<WrittenSetting<std::string>> kind;
  std::optional<WrittenSetting<std::string>> mode;
  std::optional<WrittenSetting<std::string>> dtype;
  std::optional<WrittenSetting<std::vector<std::string>>> variants;
  SamplingSettings sampling;  // "warmup" and the keys of "sampling"
};

// kind, mode, dtype, variants, warmup, sampling: the keys "defaults" may hold.
const std::vector<std::string>& common_setting_keys();

// Reads the common keys present in `object` ("defaults" when `from_defaults`, else a case),
// checking each on its own (a known kind, mode, dtype and variant names, no duplicates).
CommonSettings read_common_settings(const JsonChecker& checker, const nlohmann::json& object,
                                    const std::string& pointer, bool from_defaults);

// Fills kind, mode, dtype, variants and sampling of `out` from the case's own settings, then
// "defaults", then the built-in defaults, and checks them against `workload`.
void resolve_common_settings(const JsonChecker& checker, const CommonSettings& own,
                             const CommonSettings& defaults, const WorkloadDescriptor& workload,
                             CaseSpec& out);

// `case_object` is the case as written, `case_pointer` its place ("/cases/3"). Keys that are not
// parameters of `workload` are ignored here (the caller rejects unknown keys). Throws InputError.
nlohmann::json read_workload_params(const JsonChecker& checker, const nlohmann::json& case_object,
                                    const std::string& case_pointer,
                                    const WorkloadDescriptor& workload);

// One parameter's value, checked by its declaration; returns the value as stored in
// CaseSpec::params (integers as integers, numbers as doubles).
nlohmann::json read_param_value(const JsonChecker& checker, const nlohmann::json& value,
                                const std::string& pointer, const ParamDecl& decl);

}  // namespace graphbench
