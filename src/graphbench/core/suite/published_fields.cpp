// The "published" key of a case (see published_fields.h).
#include "graphbench/core/suite/published_fields.h"

#include "graphbench/core/base/text.h"

#include <fmt/format.h>

namespace graphbench {

using nlohmann::json;

namespace {

std::optional<double> optional_positive(const JsonChecker& checker, const json& object,
                                        const std::string& pointer, const char* key) {
  const auto found = object.find(key);
  if (found == object.end()) return std::nullopt;
  return checker.read_positive_number(*found, json_pointer_append(pointer, key));
}

std::string optional_string(const JsonChecker& checker, const json& object,
                            const std::string& pointer, const char* key) {
  const auto found = object.find(key);
  if (found == object.end()) return {};
  return checker.read_string(*found, json_pointer_append(pointer, key));
}

const std::vector<std::string> kPublishedKeys = {"variant", "speedup", "eager_us", "variant_us", "source", "device"};

PublishedFigures read_one(const JsonChecker& checker, const json& object,
                          const std::string& pointer, const WorkloadDescriptor& workload) {
  checker.check_object(object, pointer);
  checker.check_known_keys(object, pointer, kPublishedKeys);
  checker.check_required_key(object, pointer, "variant");

  PublishedFigures figures;
  const std::string variant_pointer = json_pointer_append(pointer, "variant");
  figures.variant = checker.read_string(object.at("variant"), variant_pointer);
  const std::vector<std::string> declared = variant_names(workload.variants);
  if (!contains_name(declared, figures.variant)) {
    checker.fail_expected(variant_pointer,
                          fmt::format("a variant that workload \"{}\" declares ({})", workload.name,
                                      join_names(declared)),
                          object.at("variant"));
  }
  figures.speedup = optional_positive(checker, object, pointer, "speedup");
  figures.eager_us = optional_positive(checker, object, pointer, "eager_us");
  figures.variant_us = optional_positive(checker, object, pointer, "variant_us");
  figures.source = optional_string(checker, object, pointer, "source");
  figures.device = optional_string(checker, object, pointer, "device");
  return figures;
}

}  // namespace

std::vector<PublishedFigures> read_published(const JsonChecker& checker, const json& value,
                                             const std::string& pointer,
                                             const WorkloadDescriptor& workload) {
  if (value.is_object()) return {read_one(checker, value, pointer, workload)};
  if (!value.is_array()) checker.fail_expected(pointer, "an object or an array of objects", value);
  std::vector<PublishedFigures> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    out.push_back(read_one(checker, value[i], json_pointer_append(pointer, i), workload));
  }
  return out;
}

bool published_applies(const PublishedFigures& figures, const std::string& device) {
  const bool on_cpu = lower_case(figures.device).find("cpu") != std::string::npos;
  return on_cpu == (device == "cpu");
}

}  // namespace graphbench
