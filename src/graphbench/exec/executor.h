// Executors over the same compiled program:
//   eager   ops one by one, fresh allocations each step (what ordinary LibTorch code does)
//   static  fixed slots and aliases, ops one by one, no capture (the values it can preallocate are
//           not allocated per step, though ops that autograd records still allocate; runs on the
//           CPU, so the role and alias logic is tested in CI)
//   graph   capture once per graph key, then replay
// See docs/design.md (the three executors).
#pragma once

#include "graphbench/exec/engine.h"
#include "graphbench/exec/feed.h"
#include "graphbench/exec/policy.h"

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
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual ExecutorKind kind() const = 0;

  // One step of `program` on `feed`. The outputs of the static and graph executors are their fixed
  // slots, overwritten by the next run: clone what you keep.
  virtual std::vector<at::Tensor> run(const std::shared_ptr<const Program>& program, const Feed& feed) = 0;

  // Capture time of the most recent capture, if any (graph executor).
  virtual std::optional<double> last_capture_ms() const { return std::nullopt; }
  // Why a capture failed, when the executor fell back to eager.
  virtual std::vector<std::string> fallback_reasons() const { return {}; }
};

std::unique_ptr<Executor> make_executor(ExecutorKind kind, Engine& engine, const Policy& policy,
                                        const ExecutorOptions& options = {});

// True when this build has CUDA graph support and a CUDA device is present.
bool cuda_graphs_available();

}  // namespace graphbench
