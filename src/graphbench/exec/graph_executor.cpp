// The graph executor: one capture per graph key, then replays. Before each replay only the roles
// in copy_roles are copied from the feed, and every fixed pointer is checked.
//
// The replay path is kept lean, because a small graph is timed at the host's pace: the run of the
// same program on a feed of the same signature as last time finds its entry without building a
// key, the feed is walked once without lookups, a feed of the bound buffers themselves copies
// nothing, and the outputs are the entry's list made once after capture. No allocation, no string.
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
  std::vector<at::Tensor> outputs;       // the output slots, read once after capture
  bool replayed = false;
};

class GraphExecutor final : public Executor {
 public:
  GraphExecutor(Engine& engine, const Policy& policy, const ExecutorOptions& options)
      : engine_(engine), policy_(policy), options_(options) {}

  ExecutorKind kind() const override { return ExecutorKind::kGraph; }

  void step(const std::shared_ptr<const Program>& program, const Feed& feed) override {
    GraphEntry& entry = entry_for(program, feed);
    Counters& counters = engine_.counters();
    SlotBinding& binding = *entry.binding;
    binding.check_fixed_pointers();
    binding.copy_feed(feed, counters);
    if (entry.graph) {
      if (entry.replayed) ++counters.graph_cache_hits;
      entry.graph->replay();
      entry.replayed = true;
      ++counters.replays;
    } else {
      binding.run();
      binding.outputs_into(entry.outputs);  // ops that allocate replace their slots every run
      ++counters.eager_fallback_runs;
    }
    outputs_ = &entry.outputs;
    last_entry_has_graph_ = entry.graph != nullptr;
  }

  const std::vector<at::Tensor>& outputs() const override { return outputs_ != nullptr ? *outputs_ : no_outputs_; }

  std::optional<Feed> bound_inputs(const std::shared_ptr<const Program>& program, const Feed& feed) override {
    GraphKey key;
    GraphEntry* entry = cache_.find(engine_.compile_cached(program), policy_, feed, key);
    if (entry == nullptr) return std::nullopt;
    return entry->binding->fixed_inputs();
  }

  void prepare(const std::shared_ptr<const Program>& program, const Feed& feed) override { entry_for(program, feed); }

  std::optional<double> last_capture_ms() const override { return last_capture_ms_; }
  std::optional<double> last_warmup_ms() const override { return last_warmup_ms_; }
  double total_capture_ms() const override { return total_capture_ms_; }
  std::vector<std::string> fallback_reasons() const override { return fallback_reasons_; }
  std::vector<GraphFacts> graph_facts() const override { return facts_; }
  int graphs_per_step() const override { return outputs_ != nullptr && last_entry_has_graph_ ? 1 : 0; }

 private:
  // The cached entry of this program and feed signature, captured now if there is none.
  GraphEntry& entry_for(const std::shared_ptr<const Program>& program, const Feed& feed) {
    const CompiledProgram& compiled = engine_.compile_cached(program);
    GraphKey key;
    GraphEntry* entry = cache_.find(compiled, policy_, feed, key);
    return entry != nullptr ? *entry : capture_new(compiled, feed, std::move(key));
  }

  GraphEntry& capture_new(const CompiledProgram& compiled, const Feed& feed, GraphKey key) {
    Counters& counters = engine_.counters();
    auto entry = std::make_unique<GraphEntry>();
    entry->binding = std::make_unique<SlotBinding>(compiled, policy_, engine_.store(), feed);
    ++counters.bindings;
    try {
      entry->graph = CapturedGraph::capture(*entry->binding, options_.warmup_steps, counters);
      last_capture_ms_ = entry->graph->capture_ms();
      last_warmup_ms_ = entry->graph->warmup_ms();
      total_capture_ms_ += *last_capture_ms_;
      // Replays write into the slots the capture left: the output list never changes.
      entry->binding->outputs_into(entry->outputs);
      facts_.push_back(entry->graph->facts());
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
  const std::vector<at::Tensor>* outputs_ = nullptr;
  bool last_entry_has_graph_ = false;
  const std::vector<at::Tensor> no_outputs_;
  std::optional<double> last_capture_ms_;
  std::optional<double> last_warmup_ms_;
  double total_capture_ms_ = 0.0;
  std::vector<std::string> fallback_reasons_;
  std::vector<GraphFacts> facts_;
};

}  // namespace

std::unique_ptr<Executor> make_graph_executor(Engine& engine, const Policy& policy, const ExecutorOptions& options) {
  return std::make_unique<GraphExecutor>(engine, policy, options);
}

}  // namespace graphbench
