#include "graphbench/runner/reference_runner.h"

namespace graphbench {

ReferenceRunner::ReferenceRunner(ReferenceStep step, bool graph, int warmup_iterations) : step_(std::move(step)) {
  if (graph) {
    step_.copy_inputs();
    graph_ = std::make_unique<ReferenceGraph>(step_.step, warmup_iterations, step_.undo_warmup);
  }
}

void ReferenceRunner::step() {
  step_.copy_inputs();
  ++steps_;
  if (graph_) {
    graph_->replay();
  } else {
    step_.step();
  }
}

std::map<std::string, std::int64_t> ReferenceRunner::counters() const {
  if (graph_) return {{"captures", 1}, {"replays", steps_}};
  return {{"eager_runs", steps_}};
}

std::optional<double> ReferenceRunner::capture_ms() const {
  if (!graph_) return std::nullopt;
  return graph_->capture_ms();
}

}  // namespace graphbench
