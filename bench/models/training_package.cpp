#include "models/training_package.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/exec/error_text.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <torch/script.h>

#include <algorithm>

namespace graphbench::bench {

using nlohmann::json;

const char* const kTrainingMetadataKey = "graphbench_train";

namespace {

[[noreturn]] void fail_record(const CaseSpec& spec, const std::string& package, const std::string& what) {
  fail_case_field(spec, "path",
                  fmt::format("{}: the package's {} metadata {} (case {}; export the step again with "
                              "scripts/export_model.py --mode train --format pt2)",
                              package, kTrainingMetadataKey, what, spec.name));
}

// shape ([non-negative integers]) and dtype (a known name) of `entry`, or a failure naming `where`.
std::pair<std::vector<std::int64_t>, at::ScalarType> shape_and_dtype(const CaseSpec& spec, const std::string& package,
                                                                     const json& entry, const std::string& where) {
  if (!entry.is_object() || !entry.contains("shape") || !entry.at("shape").is_array() || !entry.contains("dtype") ||
      !entry.at("dtype").is_string()) {
    fail_record(spec, package, fmt::format("has {} without a shape and a dtype: {}", where, entry.dump()));
  }
  std::vector<std::int64_t> shape;
  for (const json& size : entry.at("shape")) {
    if (!size.is_number_integer() || size.get<std::int64_t>() < 0) {
      fail_record(spec, package, fmt::format("has {} with the shape {}", where, entry.at("shape").dump()));
    }
    shape.push_back(size.get<std::int64_t>());
  }
  try {
    return {shape, dtype_from_name(entry.at("dtype").get<std::string>())};
  } catch (const InputError&) {
    fail_record(spec, package, fmt::format("has {} of the unknown dtype {}", where, entry.at("dtype").dump()));
  }
}

std::string optimizer_summary(const json& record) {
  const std::string optimizer = record.value("optimizer", std::string("?"));
  std::string text = fmt::format("{} (lr {:g}", optimizer, record.value("lr", 0.0));
  if (record.value("momentum", 0.0) != 0.0) text += fmt::format(", momentum {:g}", record.value("momentum", 0.0));
  if (record.value("weight_decay", 0.0) != 0.0) text += fmt::format(", weight decay {:g}", record.value("weight_decay", 0.0));
  return text + ")";
}

}  // namespace

bool records_training_step(const std::map<std::string, std::string>& metadata) {
  return metadata.count(kTrainingMetadataKey) != 0;
}

TrainingStep read_training_step(const CaseSpec& spec, const std::string& package,
                                const std::map<std::string, std::string>& metadata) {
  const auto found = metadata.find(kTrainingMetadataKey);
  if (found == metadata.end()) fail_record(spec, package, "is absent: the package is not a training step");
  const json record = json::parse(found->second, nullptr, /*allow_exceptions=*/false);
  if (!record.is_object()) fail_record(spec, package, "is not a JSON object");
  if (!record.contains("state") || !record.at("state").is_array() || record.at("state").empty()) {
    fail_record(spec, package, "lists no state");
  }
  TrainingStep step;
  for (std::size_t i = 0; i < record.at("state").size(); ++i) {
    const json& entry = record.at("state")[i];
    const std::string where = fmt::format("state entry {}", i);
    auto [shape, dtype] = shape_and_dtype(spec, package, entry, where);
    const std::string role = entry.value("role", std::string());
    if (role != "param" && role != "buffer" && role != "optimizer") {
      fail_record(spec, package, fmt::format("gives {} the role {} (expected param, buffer or optimizer)", where,
                                             entry.contains("role") ? entry.at("role").dump() : "(none)"));
    }
    if (!entry.contains("name") || !entry.at("name").is_string()) fail_record(spec, package, where + " has no name");
    std::vector<std::int64_t> strides;
    if (entry.contains("stride")) {
      const json& stride = entry.at("stride");
      if (!stride.is_array() || stride.size() != shape.size() ||
          !std::all_of(stride.begin(), stride.end(), [](const json& v) { return v.is_number_integer(); })) {
        fail_record(spec, package, fmt::format("has {} with the strides {} for the shape {}", where, stride.dump(),
                                               entry.at("shape").dump()));
      }
      strides = stride.get<std::vector<std::int64_t>>();
    }
    step.state.push_back(StateEntry{entry.at("name").get<std::string>(), role, std::move(shape), std::move(strides), dtype});
  }
  if (record.contains("target") && !record.at("target").is_null()) {
    const json& target = record.at("target");
    auto [shape, dtype] = shape_and_dtype(spec, package, target, "a target");
    ModelInput input{std::move(shape), dtype, 0, 0};
    if (dtype == at::kLong) {
      if (!target.contains("range") || !target.at("range").is_array() || target.at("range").size() != 2) {
        fail_record(spec, package, "has an int64 target without its range [lo, hi)");
      }
      input.low = target.at("range")[0].get<std::int64_t>();
      input.high = target.at("range")[1].get<std::int64_t>();
    }
    step.target = std::move(input);
  }
  const std::string updates = record.value("state_updates", std::string("in_place"));
  if (updates != "in_place" && updates != "returned") {
    fail_record(spec, package, fmt::format("says its state is updated \"{}\" (expected in_place or returned)", updates));
  }
  step.state_returned = updates == "returned";
  step.summary = fmt::format("loss {}, {}", record.value("loss", std::string("?")), optimizer_summary(record));
  return step;
}

std::vector<at::Tensor> load_initial_state(const CaseSpec& spec, const TrainingStep& step, at::Device device) {
  const std::string file = checked_model_file(spec, "a training step's state (TorchScript)", "state");
  torch::jit::Module module;
  try {
    module = torch::jit::load(file, device);
  } catch (const std::exception& e) {
    fail_case_field(spec, "state", fmt::format("{}: not a TorchScript file (case {}; torch::jit::load: {})", file,
                                               spec.name, error_text(e)));
  }
  std::vector<at::Tensor> out;
  for (std::size_t i = 0; i < step.state.size(); ++i) {
    const StateEntry& entry = step.state[i];
    const std::string buffer = fmt::format("s{}", i);
    if (!module.hasattr(buffer) || !module.attr(buffer).isTensor()) {
      fail_case_field(spec, "state",
                      fmt::format("{}: has no tensor {} ({}, the package's state entry {} of {}) (case {}): not the "
                                  "state written beside this package",
                                  file, buffer, entry.name, i, step.state.size(), spec.name));
    }
    at::Tensor t = module.attr(buffer).toTensor().to(device);
    if (t.sizes().vec() != entry.shape || t.scalar_type() != entry.dtype) {
      fail_case_field(spec, "state",
                      fmt::format("{}: {} is {}{}, the package's {} ({}) is {}{} (case {}): not the state written "
                                  "beside this package",
                                  file, buffer, dtype_name(t.scalar_type()), shape_to_string(t.sizes().vec()), entry.name,
                                  entry.role, dtype_name(entry.dtype), shape_to_string(entry.shape), spec.name));
    }
    const std::vector<std::int64_t> strides = entry.strides.empty() ? t.contiguous().strides().vec() : entry.strides;
    if (t.strides().vec() != strides) {
      fail_case_field(spec, "state",
                      fmt::format("{}: {} has the strides {}, the package's {} was compiled for {} (case {}): not "
                                  "the state written beside this package",
                                  file, buffer, shape_to_string(t.strides().vec()), entry.name,
                                  shape_to_string(strides), spec.name));
    }
    out.push_back(std::move(t));
  }
  if (module.hasattr(fmt::format("s{}", step.state.size()))) {
    fail_case_field(spec, "state", fmt::format("{}: holds more tensors than the package's {} state entries (case {}): "
                                               "not the state written beside this package",
                                               file, step.state.size(), spec.name));
  }
  return out;
}

}  // namespace graphbench::bench
