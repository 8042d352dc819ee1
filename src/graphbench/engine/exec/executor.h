// Executors over the same compiled program (docs/design.md, the three executors):
//   eager   ops one by one, fresh allocations each step (what ordinary LibTorch code does)
//   static  fixed slots and aliases, ops one by one, no capture (tests the role and alias logic on the CPU)
//   graph   capture once per graph key, then replay
#pragma once

#include "graphbench/engine/exec/engine.h"
#include "graphbench/engine/exec/feed.h"
#include "graphbench/engine/exec/policy.h"
#include "graphbench/engine/plan/segments.h"
#include "graphbench/core/record/graph_facts.h"
#include "graphbench/core/workload/capture_scope.h"
#include "graphbench/core/workload/variant.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// The executor a variant's Execution names.
using ExecutorKind = Execution;

struct ExecutorOptions {
  // Steps on the fixed buffers before a binding's first real run, params and state restored after:
  // step 1 of every executor is the same step.
  int warmup_steps = 3;
  // Graph executor: a failed capture records why and runs that key as the static executor does.
  bool fallback_to_eager = false;
  // Graph executor: what one step captures (core/workload/capture_scope.h): the whole step, or segments
  // with eager ops between them, sharing one pool (as make_graphed_callables) unless pool_per_graph.
  CaptureScope scope;
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual ExecutorKind kind() const = 0;

  // One step of `program` on `feed`; returns nothing, so a hot loop copies no output list.
  virtual void step(const std::shared_ptr<const Program>& program, const Feed& feed) = 0;
  // The last step's outputs; static and graph: fixed slots, overwritten by the next step.
  virtual const std::vector<at::Tensor>& outputs() const = 0;
  // step(), then a copy of the output list.
  std::vector<at::Tensor> run(const std::shared_ptr<const Program>& program, const Feed& feed) {
    step(program, feed);
    return outputs();
  }

  // The fixed buffers `feed`'s inputs are copied into (static and graph, once bound), by name: a feed
  // of these very tensors skips the copy, so a step is the replay alone. Eager: nullopt.
  virtual std::optional<Feed> bound_inputs(const std::shared_ptr<const Program>&, const Feed&) { return std::nullopt; }

  // Binds and warms up (graph: also captures) without a step, so setting up is timed apart.
  virtual void prepare(const std::shared_ptr<const Program>&, const Feed&) {}

  // Graph executor: the last capture and the warm-up before it; every capture so far (no warm-ups).
  virtual std::optional<double> last_capture_ms() const { return std::nullopt; }
  virtual std::optional<double> last_warmup_ms() const { return std::nullopt; }
  virtual double total_capture_ms() const { return 0.0; }
  // Why a capture failed, when the executor fell back to eager.
  virtual std::vector<std::string> fallback_reasons() const { return {}; }
  // One entry per graph captured (graph executor), in capture order.
  virtual std::vector<GraphFacts> graph_facts() const { return {}; }
  // Graphs one step of the last program replays: 1 for the full scope, else one per captured segment.
  virtual int graphs_per_step() const { return 0; }
  // The segments one step of the last program was cut into (engine/plan/segments.h); empty for full.
  virtual std::vector<Segment> segments() const { return {}; }
};

std::unique_ptr<Executor> make_executor(ExecutorKind kind, Engine& engine, const Policy& policy,
                                        const ExecutorOptions& options = {});
// The three executors' constructors (one file each), which make_executor picks among.
std::unique_ptr<Executor> make_eager_executor(Engine& engine);
std::unique_ptr<Executor> make_static_executor(Engine& engine, const Policy& policy, const ExecutorOptions& options);
std::unique_ptr<Executor> make_graph_executor(Engine& engine, const Policy& policy, const ExecutorOptions& options);

// True when this build has CUDA graph support and a CUDA device is present.
bool cuda_graphs_available();

}  // namespace graphbench
