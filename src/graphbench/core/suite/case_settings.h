// The settings a case may inherit from "defaults" (kind, mode, dtype, variants, warmup, sampling):
// read where they are written, then resolved for one case against what its workload declares.
#pragma once

#include "graphbench/core/json/json_checker.h"
#include "graphbench/core/suite/sampling_fields.h"
#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// A setting as written: its value, the JSON it came from and where.
template <typename T>
struct WrittenSetting {
  T value;
  nlohmann::json written;
  std::string pointer;
  bool from_defaults = false;
};

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

}  // namespace graphbench
