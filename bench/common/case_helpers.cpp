#include "common/case_helpers.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

namespace graphbench::bench {

namespace {
const nlohmann::json& param(const CaseSpec& spec, const char* name) {
  if (!spec.params.contains(name)) {
    throw InputError(fmt::format("{}/{}: missing (the spec parser fills every parameter in)", spec.json_path, name));
  }
  return spec.params.at(name);
}
}  // namespace

std::int64_t param_int(const CaseSpec& spec, const char* name) { return param(spec, name).get<std::int64_t>(); }
double param_number(const CaseSpec& spec, const char* name) { return param(spec, name).get<double>(); }
std::string param_string(const CaseSpec& spec, const char* name) { return param(spec, name).get<std::string>(); }
std::vector<std::int64_t> param_int_list(const CaseSpec& spec, const char* name) {
  return param(spec, name).get<std::vector<std::int64_t>>();
}
std::vector<double> param_number_list(const CaseSpec& spec, const char* name) {
  return param(spec, name).get<std::vector<double>>();
}

EngineRunnerConfig engine_config(const Variant& variant, std::shared_ptr<const Program> program, const Policy& policy,
                                 const CaptureScope& scope, Feed feed) {
  EngineRunnerConfig config;
  config.program = std::move(program);
  config.executor = variant.execution();
  config.input_method = variant.input_method();
  config.policy = policy;
  config.options.scope = scope;
  config.feed = std::move(feed);
  return config;
}

double element_size(at::ScalarType dtype) { return static_cast<double>(c10::elementSize(dtype)); }

std::unique_ptr<VariantRunner> function_reference(const Variant& variant, const at::Tensor& input,
                                                  std::function<at::Tensor(const at::Tensor&)> f) {
  auto static_input = std::make_shared<at::Tensor>(at::empty_like(input));
  auto output = std::make_shared<at::Tensor>();
  ReferenceStep step;
  step.copy_inputs = [static_input, input] { static_input->copy_(input); };
  step.step = [static_input, output, f = std::move(f)] { *output = f(*static_input); };
  step.observe = [output] { return std::vector<at::Tensor>{output->clone()}; };
  step.undo_warmup = [] {};
  return std::make_unique<ReferenceRunner>(std::move(step), variant.needs_cuda_graph(), /*warmup_iterations=*/3,
                                           variant.input_method());
}

}  // namespace graphbench::bench
