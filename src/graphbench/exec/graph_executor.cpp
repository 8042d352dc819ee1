// The graph executor: one capture per graph key, then replays. Before each replay only the roles
// in copy_roles are copied from the feed, and every fixed pointer is checked.
#include "graphbench/core/errors.h"
#include "graphbench/exec/binding_cache.h"
#include "graphbench/exec/cuda_graph.h"
#include "graphbench/exec/executor_factories.h"

#include <fmt/format.h>

namespace graphbench {

namespace {

struct GraphEntry {
  std::unique_ptr<SlotBinding> binding;
  std::unique_ptr<CapturedGraph> graph;  // null after a failed capture with fallback_to_eager
  bool replayed = false;
};

class GraphExecutor final : public Executor {
 public:
  GraphExecutor(Engine& engine, const Policy& policy, const ExecutorOptions& options)
      : engine_(engine), policy_(policy), options_(options) {}

  ExecutorKind kind() const override { return ExecutorKind::kGraph; }

  std::vector<at::Tensor> run(const std::shared_ptr<const Program>& program, const Feed& feed) override {
    const CompiledProgram& compiled = engine_.compile_cached(program);
    Counters& counters = engine_.counters();
    GraphKey key;
    GraphEntry* entry = cache_.find(compiled, policy_, feed, key);
    if (entry == nullptr) entry = &capture_new(compiled, feed, std::move(key));

    SlotBinding& binding = *entry->binding;
    binding.check_fixed_pointers();
    binding.copy_feed(feed, counters);
    if (entry->graph) {
      if (entry->replayed) ++counters.graph_cache_hits;
      entry->graph->replay();
      entry->replayed = true;
      ++counters.replays;
    } else {
      binding.run();
      ++counters.eager_fallback_runs;
    }
    return binding.outputs();
  }

  std::optional<double> last_capture_ms() const override { return last_capture_ms_; }
  std::vector<std::string> fallback_reasons() const override { return fallback_reasons_; }

 private:
  GraphEntry& capture_new(const CompiledProgram& compiled, const Feed& feed, GraphKey key) {
    Counters& counters = engine_.counters();
    auto entry = std::make_unique<GraphEntry>();
    entry->binding = std::make_unique<SlotBinding>(compiled, policy_, engine_.store(), feed);
    ++counters.bindings;
    try {
      entry->graph = CapturedGraph::capture(*entry->binding, options_.warmup_steps, counters);
      last_capture_ms_ = entry->graph->capture_ms();
    } catch (const CaptureError& e) {
      if (!options_.fallback_to_eager) throw;
      fallback_reasons_.push_back(fmt::format("{} (key {})", e.what(), key.to_string()));
    }
    ++counters.graph_cache_entries;
    return cache_.insert(std::move(key), std::move(entry));
  }

  Engine& engine_;
  Policy policy_;
  ExecutorOptions options_;
  BindingCache<GraphEntry> cache_;
  std::optional<double> last_capture_ms_;
  std::vector<std::string> fallback_reasons_;
};

}  // namespace

std::unique_ptr<Executor> make_graph_executor(Engine& engine, const Policy& policy, const ExecutorOptions& options) {
  return std::make_unique<GraphExecutor>(engine, policy, options);
}

}  // namespace graphbench
