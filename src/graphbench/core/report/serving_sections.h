// graphbench's recommended capture sizes against vLLM's default list (core/sweep/serving_sizes.h), as
// the "vllm_comparison" object of a sweep in results.json and as lines of its subsection in
// results.md's "Sweeps". See docs/results.md ("Sweeps") and docs/sweeps.md.
#pragma once

#include "graphbench/core/sweep/serving_sizes.h"

#include <nlohmann/json.hpp>

#include <string>

namespace graphbench {

nlohmann::json serving_comparison_to_json(const ServingComparison& c);

// "\nAgainst vLLM's default list ...\n\n| list | ... |\n..." for a sweep's subsection.
std::string serving_comparison_markdown(const ServingComparison& c);

}  // namespace graphbench
