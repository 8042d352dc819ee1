// A graph variant against eager at a sweep's point or a scope (core/sweep/sweep_verdict.h), as
// results.json and results.md write it in "sweeps" and "scopes" (docs/results.md).
#pragma once

#include "graphbench/core/sweep/sweep_verdict.h"

#include <nlohmann/json.hpp>

#include <string>

namespace graphbench {

// Adds "ok" and, when not ok, "reason"; when ok, eager_us, the variant's step under `step_key`
// ("graph_us" for a sweep's point, "step_us" for a scope), speedup, speedup_ci95, capture_ms,
// warmup_ms, pool_bytes and break-even. Returns whether the point was measured.
bool add_against_eager(const AgainstEager& a, const char* step_key, nlohmann::json& out);

// The break-even at the precision the speedup's interval allows: the replays, their range over the
// interval where it is not one number, and their seconds: "1234 [1100-1400] (0.05 s)", "1234
// [1100-?] (0.05 s)" where the interval reaches 1 (the graph may save nothing); "never" without one.
std::string break_even_cell(const AgainstEager& a);

}  // namespace graphbench
