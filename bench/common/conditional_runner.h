// A variant replaying one graph of conditional nodes: what it reports about the graph.
#pragma once

#include "graphbench/engine/exec/conditional_graph.h"
#include "graphbench/engine/runner/workload.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace graphbench::bench {

class ConditionalGraphRunner : public VariantRunner {
 public:
  // Each step copies the fed inputs into the graph's (none for :replay, already in place), then replays.
  void step() override {
    for (auto& [to, from] : feed_) to.copy_(from);
    graph_->replay();
  }
  std::optional<double> capture_ms() const override { return graph_->capture_ms(); }
  std::vector<GraphFacts> graphs() const override { return {graph_->facts()}; }
  std::optional<std::int64_t> graphs_per_step() const override { return 1; }
  std::map<std::string, std::int64_t> counters() const override {
    return {{"conditional_nodes", graph_->conditional_nodes()}, {"body_kernel_nodes", graph_->body_kernel_nodes()}};
  }

 protected:
  std::unique_ptr<ConditionalGraph> graph_;  // captured by the subclass's constructor
  std::vector<std::pair<at::Tensor, at::Tensor>> feed_;  // (the graph's input, the case's)
};

}  // namespace graphbench::bench
