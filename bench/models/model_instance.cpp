#include "models/model_instance.h"

#include "common/case_helpers.h"

#include <fmt/format.h>

namespace graphbench::bench {

ModelInstance::ModelInstance(const CaseSpec& spec, const CaseContext& context)
    : spec_(spec), device_(context.device), seed_(context.seed), train_(spec.mode == "train"),
      tolerance_(model_tolerance(spec)), read_bytes_(model_read_bytes(spec)) {}

void ModelInstance::read_inputs() {
  declared_ = read_model_inputs(spec_);
  inputs_ = make_model_inputs(declared_, device_);
}

std::shared_ptr<const Program> ModelInstance::build_inference_program(const std::string& name, const ModelCall& call) {
  Builder b(name);
  const std::vector<ValueId> outputs = call(b, declare_model_inputs(b, inputs_, feed_, declared_, &initial_));
  for (std::size_t i = 0; i < outputs.size(); ++i) b.output(fmt::format("output{}", i), outputs[i]);
  return b.build();
}

std::unique_ptr<VariantRunner> ModelInstance::engine_runner(const Variant& variant, int warmup_steps) const {
  const Policy policy = train_ ? Policy::train() : model_inference_policy(declared_);
  EngineRunnerConfig config = engine_config(variant, program_, policy, spec_.scope, feed_);
  config.options.warmup_steps = warmup_steps;
  config.options.fallback_to_eager = true;
  config.store = initial_.clone();
  if (train_) config.observed_store_entries = param_names_;
  return std::make_unique<EngineRunner>(std::move(config));
}

}  // namespace graphbench::bench
