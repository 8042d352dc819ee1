// A variant replaying one graph of conditional nodes: what it reports about the graph.
#pragma once

#include "graphbench/engine/exec/conditional_graph.h"
#include "graphbench/engine/runner/workload.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graphbench::bench {

class ConditionalGraphRunner : public VariantRunner {
 public:
  std::optional<double> capture_ms() const override { return graph_->capture_ms(); }
  std::vector<GraphFacts> graphs() const override { return {graph_->facts()}; }
  std::optional<std::int64_t> graphs_per_step() const override { return 1; }
  std::map<std::string, std::int64_t> counters() const override {
    return {{"conditional_nodes", graph_->conditional_nodes()}, {"body_kernel_nodes", graph_->body_kernel_nodes()}};
  }

 protected:
  std::unique_ptr<ConditionalGraph> graph_;  // captured by the subclass's constructor
};

}  // namespace graphbench::bench
