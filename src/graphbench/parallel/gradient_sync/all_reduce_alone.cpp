#include "graphbench/parallel/gradient_sync/all_reduce_alone.h"

#include "graphbench/engine/runner/engine_runner.h"

#include <fmt/format.h>

namespace graphbench::parallel {

struct AllReduceAlone::Impl {
  std::unique_ptr<EngineRunner> runner;
};

AllReduceAlone::AllReduceAlone(std::shared_ptr<Communicator> communicator, const std::vector<TensorSpec>& gradients,
                               ExecutorKind executor, const GradientAverageOptions& options,
                               const std::vector<std::size_t>& order)
    : impl_(std::make_unique<Impl>()) {
  Builder b("all_reduce_alone");
  std::vector<ValueId> grads;
  // State externals: fixed buffers that no feed overwrites, so a replay moves only what the step's
  // all-reduce moves (packing into buckets, the all-reduce, the division).
  for (std::size_t i = 0; i < gradients.size(); ++i) grads.push_back(b.state(fmt::format("grad.{}", i), gradients[i], 1.0));
  const auto averaged = average_gradients(b, grads, std::move(communicator), options, order);
  for (std::size_t i = 0; i < averaged.size(); ++i) b.output(fmt::format("mean.{}", i), averaged[i]);
  EngineRunnerConfig config;
  config.program = b.build();
  config.executor = executor;
  config.policy = Policy::train();
  impl_->runner = std::make_unique<EngineRunner>(std::move(config));
}

AllReduceAlone::~AllReduceAlone() = default;

void AllReduceAlone::step() { impl_->runner->step(); }

}  // namespace graphbench::parallel
