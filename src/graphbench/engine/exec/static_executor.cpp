// The static executor: fixed slots and aliases as for a graph, ops one by one, no capture; under a
// scope other than full, segment by segment as the graph executor (crossings tested on the CPU).
#include "graphbench/engine/exec/binding_executor.h"
#include "graphbench/engine/exec/segmented_step.h"
#include "graphbench/engine/exec/warm_up.h"

namespace graphbench {

namespace {

struct StaticEntry {
  std::unique_ptr<SlotBinding> binding;
  std::unique_ptr<SegmentedStep> segmented;  // scopes other than full
};

class StaticExecutor final : public BindingExecutor<StaticEntry> {
 public:
  using BindingExecutor::BindingExecutor;

  ExecutorKind kind() const override { return ExecutorKind::kStatic; }

  void step(const std::shared_ptr<const Program>& program, const Feed& feed) override {
    Counters& counters = engine_.counters();
    StaticEntry& entry = fed_entry(program, feed);
    SlotBinding& binding = *entry.binding;
    if (entry.segmented) {
      entry.segmented->run_all(counters);
    } else {
      binding.run();
    }
    ++counters.static_runs;
    binding.outputs_into(outputs_);  // ops that allocate replace their slots every run
    last_segments_ = entry.segmented ? &entry.segmented->segments() : nullptr;
  }

  std::vector<Segment> segments() const override { return last_segments_ != nullptr ? *last_segments_ : std::vector<Segment>{}; }

  const std::vector<at::Tensor>& outputs() const override { return outputs_; }

 private:
  // Cut into segments by the scope, and warmed up.
  void set_up(StaticEntry& entry, const GraphKey&) override {
    if (!options_.scope.is_full()) {
      entry.segmented = std::make_unique<SegmentedStep>(
          *entry.binding, split_into_segments(entry.binding->compiled().program(), options_.scope));
    }
    warm_up(*entry.binding, options_.warmup_steps, engine_.counters());
  }

  std::vector<at::Tensor> outputs_;
  const std::vector<Segment>* last_segments_ = nullptr;
};

}  // namespace

std::unique_ptr<Executor> make_static_executor(Engine& engine, const Policy& policy, const ExecutorOptions& options) {
  return std::make_unique<StaticExecutor>(engine, policy, options);
}

}  // namespace graphbench
