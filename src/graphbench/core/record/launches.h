// What the host launches per step, from a record's kernel profile and its graphs: the figure a
// capture scope trades against the step time (docs/scopes.md, "Choosing a scope").
#pragma once

#include "graphbench/core/record/result_record.h"

#include <optional>

namespace graphbench {

// Launches per step: one per graph replayed, one per kernel run outside the graphs (copies and
// memsets, the same for every scope, not counted). Absent without a kernel profile, or where a
// graph's kernel count is unknown (LibTorch older than 2.11).
std::optional<double> launches_per_step(const ResultRecord& record);

// The memory the record's graphs reserve in their pools; absent where no graph's is known. Graphs
// of one step sharing a pool (a segmented scope's default) count once, by their largest figure;
// graphs in pools of their own (":pool-each", a whole-step graph per feed signature) add up.
std::optional<std::int64_t> graph_pools_bytes(const ResultRecord& record);

}  // namespace graphbench
