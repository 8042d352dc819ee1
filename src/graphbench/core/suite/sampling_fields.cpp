// The "warmup" and "sampling" settings of a suite file (see sampling_fields.h).
#include "graphbench/core/suite/sampling_fields.h"

#include <fmt/format.h>

#include <limits>

namespace graphbench {

using nlohmann::json;

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

double read_open_unit(const JsonChecker& checker, const json& value, const std::string& pointer) {
  if (!value.is_number() || !(value.get<double>() > 0.0) || !(value.get<double>() < 1.0)) {
    checker.fail_expected(pointer, "a number in (0, 1)", value);
  }
  return value.get<double>();
}

double read_sampling_value(const JsonChecker& checker, const std::string& key, const json& value,
                           const std::string& pointer) {
  if (key == "min_samples" || key == "max_samples") {
    return static_cast<double>(
        checker.read_integer(value, pointer, 1, kIntMax, "a positive integer"));
  }
  if (key == "target_rel_noise") return read_open_unit(checker, value, pointer);
  return checker.read_positive_number(value, pointer);  // min/max_time_s, min_sample_time_ms
}

// The setting for `key` after merging, or nullptr when neither level sets it.
const SamplingSetting* find_setting(const SamplingSettings& merged, const std::string& key) {
  const auto found = merged.find(key);
  return found == merged.end() ? nullptr : &found->second;
}

// Reports min > max at the more specific of the two places (max on a tie).
void check_order(const JsonChecker& checker, const SamplingSettings& merged,
                 const std::string& min_key, const std::string& max_key, double min_value,
                 double max_value, const std::string& what) {
  if (min_value <= max_value) return;
  const SamplingSetting* min_setting = find_setting(merged, min_key);
  const SamplingSetting* max_setting = find_setting(merged, max_key);
  const int min_level = min_setting ? min_setting->level : 0;
  const int max_level = max_setting ? max_setting->level : 0;
  if (max_setting && max_level >= min_level) {
    checker.fail_expected(max_setting->pointer,
                          fmt::format("{} no smaller than {} ({})", what, min_key, min_value),
                          max_setting->written);
  }
  checker.fail_expected(min_setting->pointer,
                        fmt::format("{} no larger than {} ({})", what, max_key, max_value),
                        min_setting->written);
}

}  // namespace

const std::vector<std::string>& sampling_keys() {
  static const std::vector<std::string> keys = {"min_samples",      "max_samples",
                                                "min_time_s",       "max_time_s",
                                                "target_rel_noise", "min_sample_time_ms"};
  return keys;
}

void read_sampling_object(const JsonChecker& checker, const json& value,
                          const std::string& pointer, int level, SamplingSettings& settings) {
  checker.check_object(value, pointer);
  checker.check_known_keys(value, pointer, sampling_keys());
  for (const auto& key : sampling_keys()) {
    const auto found = value.find(key);
    if (found == value.end()) continue;
    const std::string field_pointer = json_pointer_append(pointer, key);
    settings[key] = {read_sampling_value(checker, key, *found, field_pointer), *found,
                     field_pointer, level};
  }
}

void read_warmup(const JsonChecker& checker, const json& value, const std::string& pointer,
                 int level, SamplingSettings& settings) {
  const auto steps = checker.read_integer(value, pointer, 0, kIntMax, "a non-negative integer");
  settings["warmup"] = {static_cast<double>(steps), value, pointer, level};
}

SamplingSpec merge_sampling(const JsonChecker& checker, const SamplingSettings& from_defaults,
                            const SamplingSettings& from_case) {
  SamplingSettings merged = from_defaults;
  for (const auto& [key, setting] : from_case) merged[key] = setting;

  SamplingSpec spec;
  const auto apply_int = [&](const char* key, int& field) {
    if (const auto* setting = find_setting(merged, key)) field = static_cast<int>(setting->value);
  };
  const auto apply_double = [&](const char* key, double& field) {
    if (const auto* setting = find_setting(merged, key)) field = setting->value;
  };
  apply_int("warmup", spec.warmup_steps);
  apply_int("min_samples", spec.min_samples);
  apply_int("max_samples", spec.max_samples);
  apply_double("min_time_s", spec.min_time_s);
  apply_double("max_time_s", spec.max_time_s);
  apply_double("target_rel_noise", spec.target_rel_noise);
  apply_double("min_sample_time_ms", spec.min_sample_time_ms);

  check_order(checker, merged, "min_samples", "max_samples", spec.min_samples, spec.max_samples,
              "a positive integer");
  check_order(checker, merged, "min_time_s", "max_time_s", spec.min_time_s, spec.max_time_s,
              "a positive number");
  return spec;
}

}  // namespace graphbench
