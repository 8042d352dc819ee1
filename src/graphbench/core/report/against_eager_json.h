// A point measured against eager (core/sweep/against_eager.h) as JSON: what a sweep's point and a
// scope share in results.json's "sweeps" and "scopes" (docs/results.md).
#pragma once

#include "graphbench/core/sweep/against_eager.h"

#include <nlohmann/json.hpp>

namespace graphbench {

// Adds "ok" and, when not ok, "reason"; when ok, eager_us, the variant's step under `step_key`
// ("graph_us" for a sweep's point, "step_us" for a scope), speedup, speedup_ci95, capture_ms,
// warmup_ms, pool_bytes and break-even. Returns whether the point was measured.
bool add_against_eager(const AgainstEager& a, const char* step_key, nlohmann::json& out);

}  // namespace graphbench
