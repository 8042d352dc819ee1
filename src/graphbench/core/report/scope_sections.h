// The verdicts of a run's capture scopes (core/sweep/scope_verdict.h) as results.json's "scopes" array
// and as results.md's "Scopes" section. See docs/results.md ("Scopes") and docs/scopes.md.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <nlohmann/json.hpp>

#include <string>

namespace graphbench {

// One object per case run with several scopes and per graph variant; an empty array when none.
nlohmann::json scopes_to_json(const RunReport& report);

// "\n## Scopes\n..." or "" when no case ran with several scopes.
std::string scopes_markdown(const RunReport& report);

}  // namespace graphbench
