#include "models/model_case.h"

#include "common/case_helpers.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/json/json_text.h"
#include "graphbench/engine/plan/tensor_spec.h"
#include "graphbench/core/suite/suite_parser.h"

#include <ATen/CPUGeneratorImpl.h>
#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAGeneratorImpl.h>
#endif
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace graphbench::bench {

using nlohmann::json;

double model_read_bytes(const CaseSpec& spec) {
  return spec.params.contains("read_bytes") ? spec.params.at("read_bytes").get<double>() : 0.0;
}

bool inputs_fit_recorded(const json& recorded, const json& given) {
  if (!recorded.is_array() || recorded.size() != given.size()) return false;
  for (std::size_t i = 0; i < given.size(); ++i) {
    const json& want = recorded[i];
    const json& have = given[i];
    if (!want.is_object() || !want.contains("shape") || !want.at("shape").is_array() ||
        want.value("dtype", "") != have.at("dtype").get<std::string>() ||
        want.at("shape").size() != have.at("shape").size()) {
      return false;
    }
    // A dynamic dimension's largest size, where the package records it ("max", beside "shape").
    const json* largest = want.contains("max") && want.at("max").is_array() &&
                                  want.at("max").size() == have.at("shape").size()
                              ? &want.at("max")
                              : nullptr;
    for (std::size_t d = 0; d < have.at("shape").size(); ++d) {
      const json& size = want.at("shape")[d];
      if (size != -1 && size != have.at("shape")[d]) return false;
      if (size == -1 && largest != nullptr && (*largest)[d].is_number_integer() &&
          have.at("shape")[d].get<std::int64_t>() > (*largest)[d].get<std::int64_t>()) {
        return false;
      }
    }
  }
  return true;
}

std::vector<ModelInput> read_model_inputs(const CaseSpec& spec) {
  std::vector<ModelInput> out;
  for (const json& input : spec.params.at("inputs")) {
    ModelInput m;
    m.shape = input.at("shape").get<std::vector<std::int64_t>>();
    m.dtype = dtype_from_name(input.at("dtype").get<std::string>());
    if (input.contains("range")) {
      m.low = input.at("range")[0].get<std::int64_t>();
      m.high = input.at("range")[1].get<std::int64_t>();
    }
    m.state = input.value("role", "input") == "state";
    if (input.contains("seed")) m.seed = static_cast<std::int64_t>(input.at("seed").get<double>());
    if (input.contains("scale")) m.scale = input.at("scale").get<double>();
    out.push_back(std::move(m));
  }
  return out;
}

namespace {

// A generator of `device`'s kind of its own (the global one left as it is), seeded with `seed`.
at::Generator seeded_generator(at::Device device, std::uint64_t seed) {
#ifdef GRAPHBENCH_WITH_CUDA
  if (device.is_cuda()) {
    at::Generator generator = at::cuda::detail::createCUDAGenerator(device.index());
    generator.set_current_seed(seed);
    return generator;
  }
#endif
  return at::detail::createCPUGenerator(seed);
}

}  // namespace

std::vector<at::Tensor> make_model_inputs(const std::vector<ModelInput>& inputs, at::Device device) {
  std::vector<at::Tensor> out;
  for (const auto& input : inputs) {
    const auto options = at::TensorOptions().dtype(input.dtype).device(device);
    if (input.state) {
      at::Generator generator = seeded_generator(device, static_cast<std::uint64_t>(input.seed));
      const at::Tensor drawn = at::randn(input.shape, generator, at::TensorOptions().dtype(at::kFloat).device(device));
      out.push_back((drawn * input.scale).to(input.dtype));
    } else if (input.dtype == at::kLong) {
      out.push_back(at::randint(input.low, input.high, input.shape, options));
    } else {
      out.push_back(at::randn(input.shape, options));
    }
  }
  return out;
}

std::vector<ValueId> declare_model_inputs(Builder& b, const std::vector<at::Tensor>& inputs, Feed& feed,
                                          const std::vector<ModelInput>& declared, ModelStore* store) {
  std::vector<ValueId> ids;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = fmt::format("input{}", i);
    if (i < declared.size() && declared[i].state) {
      ids.push_back(b.state(name, spec_of(inputs[i])));
      // The example itself, not a copy (a serving-scale KV cache is gigabytes); every runner starts
      // from its own copy of the store.
      store->set(name, inputs[i]);
    } else {
      ids.push_back(b.input(name, spec_of(inputs[i])));
      feed[name] = inputs[i];
    }
  }
  return ids;
}

bool has_state_inputs(const std::vector<ModelInput>& inputs) {
  return std::any_of(inputs.begin(), inputs.end(), [](const ModelInput& m) { return m.state; });
}

double state_bytes(const std::vector<ModelInput>& inputs) {
  double total = 0.0;
  for (const ModelInput& m : inputs) {
    if (!m.state) continue;
    double elements = 1.0;
    for (const std::int64_t d : m.shape) elements *= static_cast<double>(d);
    total += elements * static_cast<double>(c10::elementSize(m.dtype));
  }
  return total;
}

Policy model_inference_policy(const std::vector<ModelInput>& inputs) {
  Policy policy = Policy::inference();
  if (has_state_inputs(inputs)) policy.static_roles = RoleSet{Role::kInput, Role::kParam, Role::kState};
  return policy;
}

Tolerance model_tolerance(const CaseSpec& spec) {
  Tolerance t{1e-3, 1e-4};
  if (spec.dtype == "float16") t = {1e-2, 1e-3};
  if (spec.dtype == "bfloat16") t = {5e-2, 1e-2};
  if (spec.params.contains("rtol")) t.rtol = spec.params.at("rtol").get<double>();
  if (spec.params.contains("atol")) t.atol = spec.params.at("atol").get<double>();
  return t;
}

void fail_case_field(const CaseSpec& spec, const std::string& field, const std::string& message) {
  throw InputError(fmt::format("{}: {}/{}: {}", spec.suite_path, spec.json_path, field, message));
}

// The case's "description" after "made by: " (its model files' script), for a missing file's message.
std::string made_by(const CaseSpec& spec) {
  if (spec.suite_path.empty() || spec.suite_path == kSuiteFromStdin || spec.json_path.empty()) return "";
  try {
    const nlohmann::json doc = parse_json_text(read_text_file(spec.suite_path, "suite file"), spec.suite_path);
    const nlohmann::json& c = doc.at(nlohmann::json::json_pointer(spec.json_path));
    const auto found = c.find("description");
    if (found == c.end() || !found->is_string()) return "";
    const std::string text = found->get<std::string>();
    const auto at = text.find("made by: ");
    return at == std::string::npos ? "" : text.substr(at + 9);
  } catch (const std::exception&) {
    return "";
  }
}

std::string checked_model_file(const CaseSpec& spec, const std::string& what, const char* field) {
  const std::string file = param_string(spec, field);
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    const std::string maker = made_by(spec);
    fail_case_field(spec, field,
                    maker.empty()
                        ? fmt::format("{}: no such file (case {}; make model files with scripts/export_model.py, "
                                      "which needs PyTorch: docs/models.md)",
                                      file, spec.name)
                        : fmt::format("{}: no such file (case {}; the suite says it is made by: {}; that script "
                                      "needs PyTorch (docs/models.md); the cases that need no model file run with --filter or "
                                      "--cases)",
                                      file, spec.name, maker));
  }
  if (!std::filesystem::is_regular_file(file, ec)) {
    fail_case_field(spec, field, fmt::format("{}: not a regular file (case {}; expected {})", file, spec.name, what));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    fail_case_field(spec, field, fmt::format("{}: cannot read ({}) (case {})", file, std::strerror(errno), spec.name));
  }
  char magic[4] = {};
  in.read(magic, sizeof magic);
  if (in.gcount() != 4 || std::memcmp(magic, "PK\x03\x04", 4) != 0) {
    fail_case_field(spec, field,
                    fmt::format("{}: not a zip archive, so not {} (case {}): the file is damaged or of another kind",
                                file, what, spec.name));
  }
  return file;
}

}  // namespace graphbench::bench
