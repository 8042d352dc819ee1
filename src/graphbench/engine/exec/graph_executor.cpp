// The graph executor: one capture per graph key, then replays, the feed copied and pointers checked.
// The replay path is lean (a small graph is timed at the host's pace): no key built, no allocation, no
// string. A scope other than full replays a graph per captured segment (segmented_step.h).
#include "graphbench/core/base/errors.h"
#include "graphbench/engine/exec/binding_executor.h"
#include "graphbench/engine/exec/cuda_graph.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace graphbench {

namespace {

struct GraphEntry {
  std::unique_ptr<SlotBinding> binding;
  std::unique_ptr<CapturedGraph> graph;  // null after a failed capture with fallback_to_eager
  std::vector<at::Tensor> outputs;       // the output slots, read once after capture
  bool replayed = false;
  // Scopes other than full: the segments, and a graph per captured one (null for eager ones).
  std::unique_ptr<SegmentedStep> segmented;
  std::vector<std::unique_ptr<CapturedGraph>> segment_graphs;
  int captured_segments = 0;
};

class GraphExecutor final : public BindingExecutor<GraphEntry> {
 public:
  using BindingExecutor::BindingExecutor;

  ExecutorKind kind() const override { return ExecutorKind::kGraph; }

  void step(const std::shared_ptr<const Program>& program, const Feed& feed) override {
    GraphEntry& entry = fed_entry(program, feed);
    Counters& counters = engine_.counters();
    SlotBinding& binding = *entry.binding;
    if (entry.segmented) {
      run_segments(entry, counters);
    } else if (entry.graph) {
      if (entry.replayed) ++counters.graph_cache_hits;
      entry.graph->replay();
      entry.replayed = true;
      ++counters.replays;
    } else {
      binding.run();
      binding.outputs_into(entry.outputs);  // ops that allocate replace their slots every run
      ++counters.eager_fallback_runs;
    }
    last_ = &entry;  // what outputs(), graphs_per_step() and segments() read: one store per step
  }

  const std::vector<at::Tensor>& outputs() const override { return last_ != nullptr ? last_->outputs : no_outputs_; }

  std::optional<double> last_capture_ms() const override { return last_capture_ms_; }
  std::optional<double> last_warmup_ms() const override { return last_warmup_ms_; }
  double total_capture_ms() const override { return total_capture_ms_; }
  // Why captures failed (fallback_to_eager), and the ops the auto scope made eager.
  std::vector<std::string> fallback_reasons() const override {
    std::vector<std::string> reasons = auto_eager_reasons_;
    reasons.insert(reasons.end(), fallback_reasons_.begin(), fallback_reasons_.end());
    return reasons;
  }
  std::vector<GraphFacts> graph_facts() const override { return facts_; }
  int graphs_per_step() const override {
    if (last_ == nullptr) return 0;
    return last_->segmented ? last_->captured_segments : (last_->graph != nullptr ? 1 : 0);
  }
  std::vector<Segment> segments() const override {
    return last_ != nullptr && last_->segmented ? last_->segmented->segments() : std::vector<Segment>{};
  }

 private:
  // One step of a segmented entry: the graphs replayed and the eager segments run, in order.
  static void run_segments(GraphEntry& entry, Counters& counters) {
    SegmentedStep& step = *entry.segmented;
    const std::vector<Segment>& segments = step.segments();
    for (std::size_t s = 0; s < segments.size(); ++s) {
      if (segments[s].captured) {
        if (entry.replayed) ++counters.graph_cache_hits;  // every replay but the first of each graph
        entry.segment_graphs[s]->replay();
        ++counters.replays;
      } else {
        step.run_eager(s, counters);
      }
    }
    step.end_step();
    entry.replayed = true;
    entry.binding->outputs_into(entry.outputs);  // eager segments' ops that allocate replace their slots
  }

  // Cuts the step by the scope and captures its segments (auto: a failing op made eager, cut again).
  void capture_segments(GraphEntry& entry, const GraphKey& key) {
    Counters& counters = engine_.counters();
    const Program& program = entry.binding->compiled().program();
    std::vector<SplitOp> ops = split_ops(program);
    // A scope that captures nothing fails here, before the warm-up.
    std::vector<Segment> first_cut = split_into_segments(ops, options_.scope, program.name());
    const double warmup_ms = CapturedGraph::warm_up_aside(*entry.binding, options_.warmup_steps, counters);
    double capture_ms = 0.0;
    std::vector<std::string> made_eager;
    for (;;) {
      std::vector<Segment> segments = std::move(first_cut);
      try {
        if (!made_eager.empty()) segments = split_into_segments(ops, options_.scope, program.name());
      } catch (const InputError& e) {
        if (made_eager.empty()) throw;
        // Every op auto could capture failed to: as a failed capture (fallback_to_eager applies).
        throw CaptureError(fmt::format("{}, after the capture of {} failed", e.what(), fmt::join(made_eager, ", ")));
      }
      entry.segmented = std::make_unique<SegmentedStep>(*entry.binding, std::move(segments));
      try {
        CapturedGraph::Segments captured =
            CapturedGraph::capture_segments(*entry.segmented, options_.scope.pool_per_graph, counters);
        capture_ms += captured.capture_ms;
        entry.segment_graphs = std::move(captured.graphs);
        break;
      } catch (const SegmentCaptureError& e) {
        entry.segmented.reset();
        const std::optional<std::size_t> op = e.op_index();
        if (options_.scope.kind != ScopeKind::kAuto || !op || !ops[*op].tag.capturable) throw;
        ops[*op].tag.capturable = false;
        ops[*op].tag.uncapturable_reason = "its capture failed";
        made_eager.push_back(ops[*op].label);
        auto_eager_reasons_.push_back(fmt::format("{} runs eagerly: {} (key {})", ops[*op].label, e.what(), key.to_string()));
      }
    }
    entry.captured_segments = captured_count(entry.segmented->segments());
    last_capture_ms_ = capture_ms;
    last_warmup_ms_ = warmup_ms;
    total_capture_ms_ += capture_ms;
    for (const auto& graph : entry.segment_graphs) {
      if (graph) facts_.push_back(graph->facts());
    }
    entry.binding->outputs_into(entry.outputs);
  }

  // Captured (a failed capture with fallback_to_eager leaves it eager, its reason recorded).
  void set_up(GraphEntry& entry, const GraphKey& key) override {
    Counters& counters = engine_.counters();
    try {
      if (!options_.scope.is_full()) {
        capture_segments(entry, key);
      } else {
        entry.graph = CapturedGraph::capture(*entry.binding, options_.warmup_steps, counters);
        last_capture_ms_ = entry.graph->capture_ms();
        last_warmup_ms_ = entry.graph->warmup_ms();
        total_capture_ms_ += *last_capture_ms_;
        // Replays write into the slots the capture left: the output list never changes.
        entry.binding->outputs_into(entry.outputs);
        facts_.push_back(entry.graph->facts());
      }
    } catch (const CaptureError& e) {
      if (!options_.fallback_to_eager) throw;
      entry.segmented.reset();  // the segments captured before the failure go too (none for the full scope)
      entry.segment_graphs.clear();
      fallback_reasons_.push_back(fmt::format("{} (key {})", e.what(), key.to_string()));
    }
    ++counters.graph_cache_entries;
  }

  const GraphEntry* last_ = nullptr;  // the entry of the last step
  const std::vector<at::Tensor> no_outputs_;
  std::optional<double> last_capture_ms_;
  std::optional<double> last_warmup_ms_;
  double total_capture_ms_ = 0.0;
  std::vector<std::string> fallback_reasons_;
  std::vector<std::string> auto_eager_reasons_;
  std::vector<GraphFacts> facts_;
};

}  // namespace

std::unique_ptr<Executor> make_graph_executor(Engine& engine, const Policy& policy, const ExecutorOptions& options) {
  return std::make_unique<GraphExecutor>(engine, policy, options);
}

}  // namespace graphbench
