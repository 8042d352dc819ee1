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
  return graph_ ? std::vector<GraphFacts>{graph_->facts()} : std::vector<GraphFacts>{};
}
std::optional<double> ReferenceRunner::warmup_ms() const {
  return graph_ ? std::optional<double>(graph_->warmup_ms()) : std::nullopt;
}
std::optional<double> ReferenceRunner::capture_ms() const {
  return graph_ ? std::optional<double>(graph_->capture_ms()) : std::nullopt;
}

}  // namespace graphbench
