#include "graphbench/record/launches.h"

#include <algorithm>

namespace graphbench {

std::optional<double> launches_per_step(const ResultRecord& record) {
  if (!record.profile) return std::nullopt;
  const double kernels = record.profile->kernels_per_step;
  const std::int64_t replays = record.graphs_per_step.value_or(0);
  if (replays == 0) return kernels;
  // The graphs of one step: a benchmark runner binds one feed, so its graphs are that step's.
  double captured = 0.0;
  for (const GraphFacts& g : record.graphs) {
    if (!g.kernel_nodes) return std::nullopt;
    captured += static_cast<double>(*g.kernel_nodes);
  }
  return static_cast<double>(replays) + std::max(0.0, kernels - captured);
}

std::optional<std::int64_t> graph_pools_bytes(const ResultRecord& record) {
  std::optional<std::int64_t> total;
  for (const GraphFacts& g : record.graphs) {
    if (g.pool_reserved_bytes) total = total.value_or(0) + *g.pool_reserved_bytes;
  }
  return total;
}

}  // namespace graphbench
