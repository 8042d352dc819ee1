// --filter REGEX: which cases and variants of a suite run, by pattern (as google/benchmark's
// --benchmark_filter or pytest's -k). A case is kept whole when REGEX matches somewhere in its
// name; otherwise the variants whose "case/variant" it matches are kept ("gelu-small/graph",
// "/eager$"). ECMAScript syntax, unanchored (^ and $ anchor).
#pragma once

#include "graphbench/core/suite/suite_spec.h"

#include <string>

namespace graphbench {

// Keeps what `pattern` selects. InputError (exit 2) for a pattern that is not a regular
// expression, or one that selects nothing, naming the suite's cases.
void apply_case_pattern(SuiteSpec& suite, const std::string& pattern);

}  // namespace graphbench
