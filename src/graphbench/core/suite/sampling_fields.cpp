// The "warmup" and "sampling" settings of a suite file (see case_settings.h).
#include "graphbench/core/suite/case_settings.h"

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
const WrittenSetting<double>* find_setting(const SamplingSettings& merged, const std::string& key) {
  const auto found = merged.find(key);
  return found == merged.end() ? nullptr : &found->second;
}

// Reports min > max at the more specific of the two places (max on a tie).
void check_order(const JsonChecker& checker, const SamplingSettings& merged,
                 const std::string& min_key, const std::string& max_key, double min_value,
                 double max_value, const std::string& what) {
  if (min_value <= max_value) return;
  const auto* min_setting = find_setting(merged, min_key);
  const auto* max_setting = find_setting(merged, max_key);
  // The case (2) is more specific than "defaults" (1); the built-in value (0) is not written anywhere.
  const auto level = [](const WrittenSetting<double>* s) { return s ? (s->from_defaults ? 1 : 2) : 0; };
  if (max_setting && level(max_setting) >= level(min_setting)) {
    checker.fail_expected(max_setting->pointer,
                          fmt::format("{} no smaller than {} ({})", what, min_key, min_value),
                          max_setting->written);
  }
  checker.fail_expected(min_setting->pointer,
                        fmt::format("{} no larger than {} ({})", what, max_key, max_value),
                        min_setting->written);
}

const std::vector<std::string> kSamplingKeys = {"min_samples", "max_samples",      "min_time_s",
                                               "max_time_s",  "target_rel_noise", "min_sample_time_ms"};

}  // namespace

void read_sampling_object(const JsonChecker& checker, const json& value,
                          const std::string& pointer, bool from_defaults, SamplingSettings& settings) {
  checker.check_object(value, pointer);
  checker.check_known_keys(value, pointer, kSamplingKeys);
  for (const auto& key : kSamplingKeys) {
    const auto found = value.find(key);
    if (found == value.end()) continue;
    const std::string field_pointer = json_pointer_append(pointer, key);
    settings[key] = {read_sampling_value(checker, key, *found, field_pointer), *found,
                     field_pointer, from_defaults};
  }
}

void read_warmup(const JsonChecker& checker, const json& value, const std::string& pointer,
                 bool from_defaults, SamplingSettings& settings) {
  const auto steps = checker.read_integer(value, pointer, 0, kIntMax, "a non-negative integer");
  settings["warmup"] = {static_cast<double>(steps), value, pointer, from_defaults};
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
