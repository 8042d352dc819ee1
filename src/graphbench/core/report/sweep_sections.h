// The verdicts of a run's sweeps (core/sweep/sweep_verdict.h, with graphbench's capture sizes against
// vLLM's default list where they apply) and of its capture scopes (core/sweep/sweep_verdict.h), as
// results.json's "sweeps" and "scopes" arrays and results.md's sections. See docs/results.md.
#pragma once

#include "graphbench/core/sweep/sweep_verdict.h"

#include <nlohmann/json.hpp>

#include <string>

namespace graphbench {

// One object per sweep and graph variant; an empty array when the run swept nothing.
nlohmann::json sweeps_to_json(const RunReport& report);

// "\n## Sweeps\n..." or "" when the run swept nothing.
std::string sweeps_markdown(const RunReport& report);

// The energy part of a sweep's verdict: "Energy per step: the graph saves 35% (0.12 mJ) at 64, 12%
// (0.05 mJ) at 256; costs 4% more (0.02 mJ) at 8192; not resolved at 16384." (equal figures save
// 0%); "" when no point measured energy (a run without --energy on).
std::string sweep_energy_text(const SweepVerdict& verdict);

// One object per case run with several scopes and per graph variant; an empty array when none.
nlohmann::json scopes_to_json(const RunReport& report);

// "\n## Scopes\n..." or "" when no case ran with several scopes.
std::string scopes_markdown(const RunReport& report);

}  // namespace graphbench
