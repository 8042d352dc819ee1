#include "catalog/model_params.h"

#include "catalog/param_decls.h"
#include "catalog/sweep_axes.h"

#include <fmt/format.h>

#include <cmath>
#include <utility>

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

}  // namespace graphbench::bench
