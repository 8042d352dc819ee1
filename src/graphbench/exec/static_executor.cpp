// The static executor: fixed slots and aliases as for a graph, ops run one by one, no capture.
// With a capture scope other than full, it runs the step segment by segment as the graph executor
// does (segmented_step.h), the crossing copies included, so that they are tested on the CPU.
#include "graphbench/exec/binding_cache.h"
#include "graphbench/exec/executor_factories.h"
#include "graphbench/exec/segmented_step.h"
#include "graphbench/exec/warm_up.h"

namespace graphbench {

namespace {

struct StaticEntry {
  std::unique_ptr<SlotBinding> binding;
  std::unique_ptr<SegmentedStep> segmented;  // scopes other than full
};

class StaticExecutor final : public Executor {
 public:
  StaticExecutor(Engine& engine, const Policy& policy, const ExecutorOptions& options)
      : engine_(engine), policy_(policy), options_(options) {}

  ExecutorKind kind() const override { return ExecutorKind::kStatic; }

  void step(const std::shared_ptr<const Program>& program, const Feed& feed) override {
    Counters& counters = engine_.counters();
    StaticEntry& entry = entry_for(program, feed);
    SlotBinding& binding = *entry.binding;
    binding.check_fixed_pointers();
    binding.copy_feed(feed, counters);
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

  std::optional<Feed> bound_inputs(const std::shared_ptr<const Program>& program, const Feed& feed) override {
    GraphKey key;
    StaticEntry* entry = cache_.find(engine_.compile_cached(program), policy_, feed, key);
    if (entry == nullptr) return std::nullopt;
    return entry->binding->fixed_inputs();
  }

  void prepare(const std::shared_ptr<const Program>& program, const Feed& feed) override { entry_for(program, feed); }

 private:
  // The cached binding of this program and feed signature, bound and warmed up now if there is none.
  StaticEntry& entry_for(const std::shared_ptr<const Program>& program, const Feed& feed) {
    const CompiledProgram& compiled = engine_.compile_cached(program);
    Counters& counters = engine_.counters();
    GraphKey key;
    if (StaticEntry* entry = cache_.find(compiled, policy_, feed, key)) return *entry;
    auto fresh = std::make_unique<StaticEntry>();
    fresh->binding = std::make_unique<SlotBinding>(compiled, policy_, engine_.store(), feed);
    ++counters.bindings;
    if (!options_.scope.is_full()) {
      fresh->segmented = std::make_unique<SegmentedStep>(*fresh->binding, split_into_segments(*program, options_.scope));
    }
    warm_up(*fresh->binding, options_.warmup_steps, counters);
    return cache_.insert(std::move(key), std::move(fresh));
  }

  Engine& engine_;
  Policy policy_;
  ExecutorOptions options_;
  BindingCache<StaticEntry> cache_;
  std::vector<at::Tensor> outputs_;
  const std::vector<Segment>* last_segments_ = nullptr;
};

}  // namespace

std::unique_ptr<Executor> make_static_executor(Engine& engine, const Policy& policy, const ExecutorOptions& options) {
  return std::make_unique<StaticExecutor>(engine, policy, options);
}

}  // namespace graphbench
