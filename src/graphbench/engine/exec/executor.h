// Executors over the same compiled program:
//   eager   ops one by one, fresh allocations each step (what ordinary LibTorch code does)
//   static  fixed slots and aliases, ops one by one, no capture (the values it can preallocate are
//           not allocated per step, though ops that autograd records still allocate; runs on the
//           CPU, so the role and alias logic is tested in CI)
//   graph   capture once per graph key, then replay
// See docs/design.md (the three executors).
#pragma once

#include "graphbench/engine/exec/engine.h"
#include "graphbench/engine/exec/feed.h"
#include "graphbench/engine/exec/policy.h"
#include "graphbench/engine/plan/segments.h"
#include "graphbench/core/record/graph_facts.h"
#include "graphbench/core/workload/capture_scope.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

enum class ExecutorKind { kEager, kStatic, kGraph };
const char* to_string(ExecutorKind kind);

struct ExecutorOptions {
  // Steps run on the fixed buffers before the first real run of a binding (the graph executor
  // runs them on a side stream, then captures). Params and state are restored afterwards, so
  // warm-up steps leave no trace: step 1 of every executor is the same step.
  int warmup_steps = 3;
  // Graph executor: when a capture fails, record why and run that key's ops one by one on its
  // fixed buffers (as the static executor does) instead of failing.
  bool fallback_to_eager = false;
  // Graph executor: what one step captures (core/workload/capture_scope.h): the whole step, or
  // segments of it with the ops between them run eagerly; its pool_per_graph gives each of a
  // step's graphs a memory pool of its own instead of one they share, captured in order (as
  // torch.cuda.make_graphed_callables shares one).
  CaptureScope scope;
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual ExecutorKind kind() const = 0;

  // One step of `program` on `feed`. Its outputs are then readable through outputs() until the next
  // step; step() itself returns nothing, so a hot loop copies no output list.
  virtual void step(const std::shared_ptr<const Program>& program, const Feed& feed) = 0;
  // The outputs of the last step (empty before the first). Those of the static and graph executors
  // are their fixed slots, overwritten by the next step: clone what you keep.
  virtual const std::vector<at::Tensor>& outputs() const = 0;
  // step(), then a copy of the output list.
  std::vector<at::Tensor> run(const std::shared_ptr<const Program>& program, const Feed& feed) {
    step(program, feed);
    return outputs();
  }

  // The fixed buffers the inputs of `feed` are copied into when `program` runs on it (static and
  // graph executors, once a step with a feed of that signature has run), by name. A feed of these
  // very tensors makes a step skip the copy: write the next inputs into them and the step is the
  // replay alone. The eager executor has no fixed buffers: nullopt.
  virtual std::optional<Feed> bound_inputs(const std::shared_ptr<const Program>& program, const Feed& feed) {
    (void)program;
    (void)feed;
    return std::nullopt;
  }

  // Gets `program` ready for feeds like `feed` without running a step, so that setting up can be
  // timed apart from the steps: the static executor binds and warms up, the graph executor also
  // captures (its first run() then replays). Eager has nothing to prepare.
  virtual void prepare(const std::shared_ptr<const Program>& program, const Feed& feed) {
    (void)program;
    (void)feed;
  }

  // Capture time of the most recent capture, if any (graph executor).
  virtual std::optional<double> last_capture_ms() const { return std::nullopt; }
  // The warm-up steps before the most recent capture, if any (graph executor).
  virtual std::optional<double> last_warmup_ms() const { return std::nullopt; }
  // Capture and instantiation of every graph captured so far, summed (graph executor; 0 otherwise).
  // Without the warm-up steps before each capture, where the libraries' first calls are paid.
  virtual double total_capture_ms() const { return 0.0; }
  // Why a capture failed, when the executor fell back to eager.
  virtual std::vector<std::string> fallback_reasons() const { return {}; }
  // One entry per graph captured (graph executor), in capture order.
  virtual std::vector<GraphFacts> graph_facts() const { return {}; }
  // Graphs replayed by one step of the last program run (graph executor): 1 for the full scope,
  // one per captured segment otherwise; 0 for executors that capture nothing.
  virtual int graphs_per_step() const { return 0; }
  // The segments one step of the last program run was cut into (engine/plan/segments.h): static and graph
  // executors under a scope other than full; empty otherwise. For the auto scope, after the ops
  // that failed to capture were made eager.
  virtual std::vector<Segment> segments() const { return {}; }
};

std::unique_ptr<Executor> make_executor(ExecutorKind kind, Engine& engine, const Policy& policy,
                                        const ExecutorOptions& options = {});

// True when this build has CUDA graph support and a CUDA device is present.
bool cuda_graphs_available();

}  // namespace graphbench
