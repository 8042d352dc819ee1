#include "graphbench/engine/runner/engine_runner.h"

#include <ATen/core/grad_mode.h>

namespace graphbench {

EngineRunner::EngineRunner(EngineRunnerConfig config)
    : program_(std::move(config.program)),
      store_(std::move(config.store)),
      engine_(store_),
      executor_(make_executor(config.executor, engine_, config.policy, config.options)),
      feed_(std::move(config.feed)),
      observed_(std::move(config.observed_store_entries)),
      in_place_(config.input_method == InputMethod::kInPlace) {}

void EngineRunner::step() {
  executor_->step(program_, feed_);
  if (in_place_) {
    // The first step bound (and captured) with the fed inputs and copied them in; from now on the
    // feed is the fixed buffers themselves, so every step skips the copy.
    if (auto bound = executor_->bound_inputs(program_, feed_)) feed_ = std::move(*bound);
    in_place_ = false;
  }
}

std::vector<at::Tensor> EngineRunner::observe() {
  at::NoGradGuard no_grad;
  std::vector<at::Tensor> out;
  for (const auto& t : executor_->outputs()) out.push_back(t.detach().clone());
  for (const auto& name : observed_) out.push_back(store_.at(name).detach().clone());
  return out;
}

std::map<std::string, std::int64_t> EngineRunner::counters() const { return engine_.counters().to_map(); }

std::optional<double> EngineRunner::capture_ms() const { return executor_->last_capture_ms(); }
std::optional<double> EngineRunner::warmup_ms() const { return executor_->last_warmup_ms(); }

std::vector<GraphFacts> EngineRunner::graphs() const { return executor_->graph_facts(); }

std::optional<std::int64_t> EngineRunner::graphs_per_step() const {
  if (executor_->kind() != ExecutorKind::kGraph) return std::nullopt;
  return executor_->graphs_per_step();
}

std::vector<std::string> EngineRunner::capture_failures() const { return executor_->fallback_reasons(); }

}  // namespace graphbench
