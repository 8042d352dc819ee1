#include "models/model_case.h"

#include "common/case_helpers.h"
#include "common/sweep_axes.h"

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
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace graphbench::bench {

using nlohmann::json;

namespace {

ParamDecl optional_number(const char* name, const char* help) {
  ParamDecl p = optional_param(name, ParamType::kNumber, help);
  p.min = 0.0;
  p.max = 1.0;
  return p;
}

}  // namespace

ParamDecl read_bytes_param() {
  ParamDecl p = optional_param("read_bytes", ParamType::kNumber,
                               "bytes one step must read at least (parameters, plus the KV cache of a decoding step): "
                               "the roofline beside each variant");
  p.min = 1.0;
  p.max = 1e15;
  return p;
}

WorkloadDescriptor model_descriptor(const char* name, const char* summary, std::vector<Variant> variants,
                                   const char* path_help, std::vector<ParamDecl> own) {
  WorkloadDescriptor d = describe_workload(name, {"inference", "train"}, {"benchmark"}, summary);
  d.variants = std::move(variants);
  d.dtypes = {"float32", "float16", "bfloat16"};
  d.params = {model_path_param(path_help), model_inputs_param()};
  for (auto& p : own) d.params.push_back(std::move(p));
  for (auto& p : tolerance_params()) d.params.push_back(std::move(p));
  d.params.push_back(read_bytes_param());
  d.sweep_axes = model_sweep_axes();
  return d;
}

double model_read_bytes(const CaseSpec& spec) {
  return spec.params.contains("read_bytes") ? spec.params.at("read_bytes").get<double>() : 0.0;
}

ParamDecl model_path_param(const char* help) { return typed_param("path", ParamType::kPath, nullptr, help); }

ParamDecl model_inputs_param() {
  ParamDecl dtype = typed_param("dtype", ParamType::kString, "float32", "element type");
  dtype.choices = {"float32", "float16", "bfloat16", "int64"};
  ParamDecl range = optional_param("range", ParamType::kIntList,
                                   "int64 inputs: values drawn from [lo, hi), e.g. token ids [0, 30522)");
  range.length = 2;
  range.min = -1e15;  // well inside the integers a double holds exactly
  range.max = 1e15;
  ParamDecl inputs = typed_param("inputs", ParamType::kObjectList, nullptr,
                           "the model's inputs, in forward's order: [{\"shape\": [...], \"dtype\": ..., \"range\": [lo, hi)}]");
  ParamDecl batched = optional_param("batched", ParamType::kBool,
                                     "dimension 0 is the batch, which a sweep over \"batch\" sets (default: inputs of "
                                     "two or more dimensions)");
  ParamDecl position = optional_param("position", ParamType::kBool,
                                      "the input holds a decoding step's position, which a sweep over \"pos\" sets");
  ParamDecl role = optional_param("role", ParamType::kString,
                                  "input (fed every step, the default) or state: a tensor the model writes in place (a "
                                  "KV cache), allocated once and filled from seed and scale");
  role.choices = {"input", "state"};
  ParamDecl seed =
      optional_param("seed", ParamType::kNumber, "role state: the seed of its starting values (default 0)");
  seed.min = 0;
  seed.max = 9e15;  // well inside the integers a double holds exactly
  ParamDecl scale = optional_param("scale", ParamType::kNumber,
                                   "role state: its starting values are standard normal draws times this (default 1)");
  scale.min = 0;
  scale.max = 1e6;
  inputs.fields = {typed_param("shape", ParamType::kPositiveIntList, nullptr, "the input's shape"),
                   dtype, range, batched, position, role, seed, scale};
  return inputs;
}

std::vector<ParamDecl> tolerance_params() {
  return {optional_number("rtol", "relative tolerance of the comparison with eager (default by dtype)"),
          optional_number("atol", "absolute tolerance of the comparison with eager (default by dtype)")};
}

std::optional<ParamProblem> check_model_inputs(const json& params) {
  const json& inputs = params.at("inputs");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const json& input = inputs[i];
    const std::string pointer = fmt::format("/inputs/{}", i);
    const bool integer = input.at("dtype") == "int64";
    const bool state = input.value("role", "input") == "state";
    if (state && integer) {
      return ParamProblem{pointer + "/role", "expected a floating-point dtype for role state (a tensor the model "
                                             "writes in place, such as a KV cache), got int64"};
    }
    for (const char* key : {"seed", "scale"}) {
      if (!state && input.contains(key)) {
        return ParamProblem{pointer + "/" + key, fmt::format("expected no {} for an input without \"role\": "
                                                             "\"state\" (it sets a state's starting values)", key)};
      }
    }
    if (input.contains("seed") && input.at("seed").get<double>() != std::floor(input.at("seed").get<double>())) {
      return ParamProblem{pointer + "/seed", fmt::format("expected a whole number, got {}", input.at("seed").dump())};
    }
    if (integer && !input.contains("range")) {
      return ParamProblem{pointer, "missing required key \"range\" (int64 inputs draw their values from [lo, hi), "
                                   "e.g. [0, 30522) for token ids)"};
    }
    if (!input.contains("range")) continue;
    const json& range = input.at("range");
    if (!integer) {
      return ParamProblem{pointer + "/range", fmt::format("expected no range for a {} input (int64 inputs only), got {}",
                                                          input.at("dtype").get<std::string>(), range.dump())};
    }
    if (range[0].get<std::int64_t>() >= range[1].get<std::int64_t>()) {
      return ParamProblem{pointer + "/range", fmt::format("expected [lo, hi) with lo < hi, got {}", range.dump())};
    }
  }
  return std::nullopt;
}

std::optional<ParamProblem> check_no_state_inputs(const json& params, const std::string& what) {
  const json& inputs = params.at("inputs");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].value("role", "input") != "state") continue;
    return ParamProblem{fmt::format("/inputs/{}/role", i),
                        fmt::format("expected no role state in {} (a state input goes with inference of one whole "
                                    "model, such as a decoding step)",
                                    what)};
  }
  return std::nullopt;
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
