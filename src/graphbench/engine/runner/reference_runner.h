// The `reference` variants: the tutorial's code, the batch copied into static inputs, run or replayed.
#pragma once

#include "graphbench/engine/exec/reference_graph.h"
#include "graphbench/engine/runner/workload.h"

#include <functional>
#include <memory>

namespace graphbench {

struct ReferenceStep {
  std::function<void()> copy_inputs;               // batch -> static input tensors
  std::function<void()> step;                      // the tutorial's training_step (or forward)
  std::function<std::vector<at::Tensor>()> observe;  // outputs (and params) as copies
  std::function<void()> undo_warmup;               // restores params and optimizer state after warm-up
};

class ReferenceRunner final : public VariantRunner {
 public:
  // kInPlace (graph only): the batch copied in once, at capture; a step is the bare replay.
  ReferenceRunner(ReferenceStep step, bool graph, int warmup_iterations, InputMethod inputs = InputMethod::kFed);
  void step() override;
  std::vector<at::Tensor> observe() override { return step_.observe(); }
  std::optional<double> capture_ms() const override;
  std::optional<double> warmup_ms() const override;
  // steps run (eagerly), captures and replays: the same names as the engine's counters.
  std::map<std::string, std::int64_t> counters() const override;
  std::vector<GraphFacts> graphs() const override;

 private:
  ReferenceStep step_;
  std::unique_ptr<ReferenceGraph> graph_;
  bool in_place_ = false;
  std::int64_t steps_ = 0;
};

}  // namespace graphbench
