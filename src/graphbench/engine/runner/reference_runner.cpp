#include "graphbench/engine/runner/reference_runner.h"

namespace graphbench {

ReferenceRunner::ReferenceRunner(ReferenceStep step, bool graph, int warmup_iterations, InputMethod inputs)
    : step_(std::move(step)), in_place_(graph && inputs == InputMethod::kInPlace) {
  if (graph) {
    step_.copy_inputs();
    graph_ = std::make_unique<ReferenceGraph>(step_.step, warmup_iterations, step_.undo_warmup);
  }
}

void ReferenceRunner::step() {
  if (!in_place_) step_.copy_inputs();
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

std::vector<GraphFacts> ReferenceRunner::graphs() const {
  if (!graph_) return {};
  return {graph_->facts()};
}

std::optional<double> ReferenceRunner::warmup_ms() const {
  if (!graph_) return std::nullopt;
  return graph_->warmup_ms();
}

std::optional<double> ReferenceRunner::capture_ms() const {
  if (!graph_) return std::nullopt;
  return graph_->capture_ms();
}

}  // namespace graphbench
