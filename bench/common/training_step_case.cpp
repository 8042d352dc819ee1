#include "common/training_step_case.h"

#include "common/case_helpers.h"

#include "graphbench/core/base/errors.h"

#include <torch/utils.h>

namespace graphbench::bench {

TrainingStepCase::TrainingStepCase(const CaseSpec& spec, const CaseContext& context, DataParallelSetup setup,
                                   std::int64_t batch)
    : device_(context.device),
      scope_(spec.scope),
      batch_(batch),
      setup_(std::move(setup)),
      rows_(setup_.shard == DataParallelSetup::kWholeBatch ? batch_ * setup_.ranks : batch_) {}

std::int64_t TrainingStepCase::first_row() const {
  return setup_.shard == DataParallelSetup::kWholeBatch ? 0 : setup_.shard * batch_;
}

std::unique_ptr<VariantRunner> TrainingStepCase::make_runner(const Variant& variant, bool validation) {
  if (variant.is_reference()) {
    if (setup_.communicator) throw EngineError("the reference variants have no data-parallel form");
    return std::make_unique<ReferenceRunner>(make_reference(validation), variant.needs_cuda_graph(),
                                             /*warmup_iterations=*/3, variant.input_method());
  }
  EngineRunnerConfig config =
      engine_config(variant, validation ? validation_program_ : timed_program_, policy_, scope_, feed_);
  config.store = initial_.clone();
  config.observed_store_entries = observed_;
  return std::make_unique<EngineRunner>(std::move(config));
}

void zero_momentum_buffers(torch::optim::SGD& optimizer) {
  torch::NoGradGuard no_grad;
  for (auto& [key, state] : optimizer.state()) {
    auto& sgd = static_cast<torch::optim::SGDParamState&>(*state);
    if (sgd.momentum_buffer().defined()) sgd.momentum_buffer().zero_();
  }
}

}  // namespace graphbench::bench
