#include "models/script_model.h"

#include "models/model_case.h"

#include "graphbench/engine/exec/error_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <regex>
#include <set>

namespace graphbench::bench {

double module_bytes(const torch::jit::Module& module) {
  std::set<const void*> seen;
  double bytes = 0.0;
  const auto add = [&](const at::Tensor& t) {
    if (!t.defined() || !seen.insert(t.storage().data()).second) return;
    bytes += static_cast<double>(t.storage().nbytes());
  };
  for (const auto& p : module.named_parameters(/*recurse=*/true)) add(p.value);
  for (const auto& b : module.named_buffers(/*recurse=*/true)) add(b.value);
  return bytes;
}

std::vector<torch::jit::Module> dropout_modules(const torch::jit::Module& module) {
  // torch.nn's Dropout, Dropout1d/2d/3d, AlphaDropout, FeatureAlphaDropout, under any prefix.
  static const std::regex kDropoutClass("(Feature)?(Alpha)?Dropout([123]d)?");
  std::vector<torch::jit::Module> out;
  for (const auto& m : module.modules()) {
    const auto name = m.type()->name();
    if (name && std::regex_match(name->name(), kDropoutClass)) out.push_back(m);
  }
  return out;
}

ForwardArguments forward_arguments(const torch::jit::Method& forward) {
  const auto& arguments = forward.function().getSchema().arguments();
  ForwardArguments out;
  std::vector<std::string> shown;
  for (std::size_t i = 1; i < arguments.size(); ++i) {  // 0 is self
    ++out.total;
    if (!arguments[i].default_value()) ++out.required;
    shown.push_back(fmt::format("{}: {}", arguments[i].name(), arguments[i].type()->str()));
  }
  out.signature = fmt::format("forward({})", fmt::join(shown, ", "));
  return out;
}

torch::jit::Module load_script_model(const CaseSpec& spec, at::Device device) {
  const std::string file = checked_model_file(spec, "a TorchScript file");
  torch::jit::Module module;
  try {
    module = torch::jit::load(file, device);
  } catch (const std::exception& e) {
    fail_case_field(spec, "path",
                    fmt::format("{}: not a TorchScript file (case {}; torch::jit::load: {}). A torch.save() checkpoint "
                                "is not TorchScript; an AOTInductor package (.pt2) runs with workload \"aoti\"",
                                file, spec.name, error_text(e)));
  }
  const auto forward = module.find_method("forward");
  if (!forward) {
    fail_case_field(spec, "path", fmt::format("{}: the TorchScript module has no forward method (case {})", file, spec.name));
  }
  const ForwardArguments arguments = forward_arguments(*forward);
  const std::size_t given = spec.params.at("inputs").size();
  if (given < arguments.required || given > arguments.total) {
    const std::string takes = arguments.required == arguments.total
                                  ? std::to_string(arguments.total)
                                  : fmt::format("{} to {}", arguments.required, arguments.total);
    fail_case_field(spec, "inputs",
                    fmt::format("the model {} takes {} input(s), {}; the case gives {} (case {})", file, takes,
                                arguments.signature, given, spec.name));
  }
  return module;
}

}  // namespace graphbench::bench
