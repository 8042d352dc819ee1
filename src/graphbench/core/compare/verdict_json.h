// `graphbench compare --json FILE`: the verdicts for machines (CI bots, dashboards), as
// google/benchmark's compare.py writes with --dump_to_json. One object: the files compared, the
// options, the exit code, the warnings, and one row per (case, variant, measure) with its verdict,
// whether it counts as a regression, the ratio and its 95% interval, the threshold used, the noise
// figures, both medians and the note. Figures that do not apply (NaN) are null. docs/ci.md.
#pragma once

#include "graphbench/core/compare/compare.h"

#include <nlohmann/json.hpp>

namespace graphbench {

nlohmann::json comparison_to_json(const CompareResult& result, const CompareOptions& options,
                                  const CompareSources& sources);

}  // namespace graphbench
