#include "graphbench/runner/engine_runner.h"

namespace graphbench {

EngineRunner::EngineRunner(EngineRunnerConfig config)
    : program_(std::move(config.program)),
      store_(std::move(config.store)),
      engine_(store_),
      executor_(make_executor(config.executor, engine_, config.policy, config.options)),
      feed_(std::move(config.feed)),
      observed_(std::move(config.observed_store_entries)) {}

void EngineRunner::step() { outputs_ = executor_->run(program_, feed_); }

std::vector<at::Tensor> EngineRunner::observe() {
  at::NoGradGuard no_grad;
  std::vector<at::Tensor> out;
  for (const auto& t : outputs_) out.push_back(t.detach().clone());
  for (const auto& name : observed_) out.push_back(store_.at(name).detach().clone());
  return out;
}

std::map<std::string, std::int64_t> EngineRunner::counters() const { return engine_.counters().to_map(); }

std::optional<double> EngineRunner::capture_ms() const { return executor_->last_capture_ms(); }

std::vector<std::string> EngineRunner::capture_failures() const { return executor_->fallback_reasons(); }

}  // namespace graphbench
