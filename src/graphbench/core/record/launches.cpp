#include "graphbench/core/record/launches.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/workload/capture_scope.h"

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

namespace {

// Whether the record's scope gave each graph a pool of its own (":pool-each"). A scope this
// version cannot read (a newer file's) is taken as the shared default.
bool pools_of_their_own(const std::string& scope) {
  if (scope.empty()) return false;
  try {
    return parse_capture_scope(scope, "scope").pool_per_graph;
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace

std::optional<std::int64_t> graph_pools_bytes(const ResultRecord& record) {
  const bool shared_within_step = record.graphs_per_step.value_or(1) > 1 && !pools_of_their_own(record.scope);
  // A step's graphs come together, in capture order (Executor::graph_facts).
  const std::size_t per_pool = shared_within_step ? static_cast<std::size_t>(*record.graphs_per_step) : 1;
  std::optional<std::int64_t> total;
  for (std::size_t first = 0; first < record.graphs.size(); first += per_pool) {
    std::optional<std::int64_t> pool;
    for (std::size_t i = first; i < std::min(record.graphs.size(), first + per_pool); ++i) {
      if (const auto& bytes = record.graphs[i].pool_reserved_bytes) pool = std::max(pool.value_or(0), *bytes);
    }
    if (pool) total = total.value_or(0) + *pool;
  }
  return total;
}

}  // namespace graphbench
