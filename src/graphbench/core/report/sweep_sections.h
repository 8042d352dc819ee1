// The verdicts of a run's sweeps (core/sweep/sweep_verdict.h) as results.json's "sweeps" array and as
// results.md's "Sweeps" section. See docs/results.md ("Sweeps").
#pragma once

#include "graphbench/core/record/result_record.h"

#include <nlohmann/json.hpp>

#include <string>

namespace graphbench {

// One object per sweep and graph variant; an empty array when the run swept nothing.
nlohmann::json sweeps_to_json(const RunReport& report);

// "\n## Sweeps\n..." or "" when the run swept nothing.
std::string sweeps_markdown(const RunReport& report);

}  // namespace graphbench
