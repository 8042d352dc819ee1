// What the host launches per step, from a record's kernel profile and its graphs: the figure a
// capture scope trades against the step time (docs/scopes.md, "Choosing a scope").
#pragma once

#include "graphbench/core/record/result_record.h"

#include <optional>

namespace graphbench {

// Launches per step: each graph replayed counts one, each kernel the device ran outside the graphs
// one (the profile's kernels per step less the kernel nodes of the graphs one step replays). A
// variant that captured nothing launches every kernel it runs. Absent without a kernel profile, or
// where a graph's kernel count is unknown (a LibTorch older than 2.11). Copies and memsets are not
// counted: they are the feed's, the same for every scope.
std::optional<double> launches_per_step(const ResultRecord& record);

// The memory the record's graphs reserve in their pools; absent where no graph's is known. Each
// graph read its pool right after its capture, so the graphs of one step that share a pool (a
// segmented scope's default) count once, by the largest figure among them (the last graph's: the
// pool after all of them); graphs in pools of their own (a whole-step graph per feed signature, a
// scope ending in ":pool-each") add up.
std::optional<std::int64_t> graph_pools_bytes(const ResultRecord& record);

}  // namespace graphbench
