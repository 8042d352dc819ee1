// The settings a case may inherit from "defaults" (see case_settings.h).
#include "graphbench/core/suite/case_settings.h"

#include <fmt/format.h>

namespace graphbench {

using nlohmann::json;

namespace {

const std::vector<std::string> kKinds = {"benchmark", "training"};
const std::vector<std::string> kModes = {"inference", "train"};
const std::vector<std::string> kDtypes = {"float32", "float16", "bfloat16"};

std::optional<WrittenSetting<std::string>> read_choice_setting(
    const JsonChecker& checker, const json& object, const std::string& pointer, const char* key,
    const std::vector<std::string>& choices, bool from_defaults) {
  const auto found = object.find(key);
  if (found == object.end()) return std::nullopt;
  const std::string field_pointer = json_pointer_append(pointer, key);
  return WrittenSetting<std::string>{checker.read_choice(*found, field_pointer, choices), *found,
                                     field_pointer, from_defaults};
}

std::optional<WrittenSetting<std::vector<std::string>>> read_variants(const JsonChecker& checker,
                                                                      const json& object,
                                                                      const std::string& pointer,
                                                                      bool from_defaults) {
  const auto found = object.find("variants");
  if (found == object.end()) return std::nullopt;
  const std::string list_pointer = json_pointer_append(pointer, "variants");
  if (!found->is_array() || found->empty()) {
    checker.fail_expected(list_pointer, "a non-empty array of variant names", *found);
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < found->size(); ++i) {
    const std::string item_pointer = json_pointer_append(list_pointer, i);
    const std::string name = checker.read_choice((*found)[i], item_pointer, Variant::names());
    for (std::size_t j = 0; j < names.size(); ++j) {
      if (names[j] == name) {
        checker.fail(item_pointer, fmt::format("duplicate variant \"{}\" (also at {})", name,
                                               json_pointer_append(list_pointer, j)));
      }
    }
    names.push_back(name);
  }
  return WrittenSetting<std::vector<std::string>>{names, *found, list_pointer, from_defaults};
}

// The case's own setting, else the one from "defaults", else nullptr.
template <typename T>
const WrittenSetting<T>* pick(const std::optional<WrittenSetting<T>>& own,
                              const std::optional<WrittenSetting<T>>& defaults) {
  if (own) return &*own;
  if (defaults) return &*defaults;
  return nullptr;
}

// "expected a <what> that workload "gelu" declares (a, b)[ for /cases/1]"
std::string declared_text(const char* what, const WorkloadDescriptor& workload,
                          const std::vector<std::string>& declared, bool from_defaults,
                          const std::string& case_pointer) {
  return fmt::format("a {} that workload \"{}\" declares ({}){}", what, workload.name,
                     join_names(declared), from_defaults ? " for " + case_pointer : "");
}

std::string resolve_choice(const JsonChecker& checker, const WrittenSetting<std::string>* setting,
                           const char* what, const std::string& builtin_default,
                           const std::vector<std::string>& declared,
                           const WorkloadDescriptor& workload, const std::string& case_pointer) {
  if (setting == nullptr) {
    if (!contains_name(declared, builtin_default)) {
      checker.fail(case_pointer,
                   fmt::format("workload \"{}\" does not support the default {} \"{}\" (it "
                               "declares: {}); set \"{}\"",
                               workload.name, what, builtin_default, join_names(declared), what));
    }
    return builtin_default;
  }
  if (!contains_name(declared, setting->value)) {
    checker.fail_expected(setting->pointer,
                          declared_text(what, workload, declared, setting->from_defaults,
                                        case_pointer),
                          setting->written);
  }
  return setting->value;
}

// A training run hands every step a new batch, so its variants must feed their inputs: the
// ":replay" forms (inputs already in place) apply to timed steps only.
std::vector<Variant> resolve_variants(const JsonChecker& checker,
                                     const WrittenSetting<std::vector<std::string>>* setting,
                                     const WorkloadDescriptor& workload, const std::string& kind,
                                     const std::string& case_pointer) {
  const bool training = kind == "training";
  std::vector<Variant> variants;
  if (setting == nullptr) {
    for (const Variant& v : workload.variants) {
      if (!(training && v.inputs_in_place())) variants.push_back(v);
    }
    return variants;
  }
  const std::vector<std::string> declared = variant_names(workload.variants);
  for (std::size_t i = 0; i < setting->value.size(); ++i) {
    const std::string item_pointer = json_pointer_append(setting->pointer, i);
    if (!contains_name(declared, setting->value[i])) {
      checker.fail_expected(item_pointer,
                            declared_text("variant", workload, declared, setting->from_defaults, case_pointer),
                            setting->written[i]);
    }
    const Variant& variant = Variant::named(setting->value[i]);
    if (training && variant.inputs_in_place()) {
      checker.fail_expected(item_pointer,
                            fmt::format("a variant that feeds its inputs (a training run hands every step a new "
                                        "batch; \"{}\" replays on inputs already in place){}",
                                        variant.name(), setting->from_defaults ? " for " + case_pointer : ""),
                            setting->written[i]);
    }
    variants.push_back(variant);
  }
  return variants;
}

}  // namespace

const std::vector<std::string>& common_setting_keys() {
  static const std::vector<std::string> keys = {"kind",     "mode",   "dtype",
                                                "variants", "warmup", "sampling"};
  return keys;
}

CommonSettings read_common_settings(const JsonChecker& checker, const json& object,
                                    const std::string& pointer, bool from_defaults) {
  CommonSettings settings;
  settings.kind = read_choice_setting(checker, object, pointer, "kind", kKinds, from_defaults);
  settings.mode = read_choice_setting(checker, object, pointer, "mode", kModes, from_defaults);
  settings.dtype = read_choice_setting(checker, object, pointer, "dtype", kDtypes, from_defaults);
  settings.variants = read_variants(checker, object, pointer, from_defaults);
  if (const auto found = object.find("warmup"); found != object.end()) {
    read_warmup(checker, *found, json_pointer_append(pointer, "warmup"), from_defaults, settings.sampling);
  }
  if (const auto found = object.find("sampling"); found != object.end()) {
    read_sampling_object(checker, *found, json_pointer_append(pointer, "sampling"), from_defaults, settings.sampling);
  }
  return settings;
}

void resolve_common_settings(const JsonChecker& checker, const CommonSettings& own,
                             const CommonSettings& defaults, const WorkloadDescriptor& workload,
                             CaseSpec& out) {
  const std::string& at = out.json_path;
  out.kind = resolve_choice(checker, pick(own.kind, defaults.kind), "kind", "benchmark",
                            workload.kinds, workload, at);
  const std::string first_mode = workload.modes.empty() ? "inference" : workload.modes.front();
  out.mode = resolve_choice(checker, pick(own.mode, defaults.mode), "mode", first_mode,
                            workload.modes, workload, at);
  out.dtype = resolve_choice(checker, pick(own.dtype, defaults.dtype), "dtype", "float32",
                             workload.dtypes, workload, at);
  out.variants = resolve_variants(checker, pick(own.variants, defaults.variants), workload, out.kind, at);
  out.sampling = merge_sampling(checker, defaults.sampling, own.sampling);
}

}  // namespace graphbench
