// `graphbench compare --json FILE`: the verdicts for machines, as google/benchmark's compare.py
// --dump_to_json: the files, options, exit code, warnings and one row per (case, variant, measure);
// figures that do not apply (NaN) are null. docs/ci.md.
#pragma once

#include "graphbench/core/compare/compare.h"

#include <nlohmann/json.hpp>

namespace graphbench {

nlohmann::json comparison_to_json(const CompareResult& result, const CompareOptions& options,
                                  const CompareSources& sources);

}  // namespace graphbench
