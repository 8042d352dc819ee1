// The tool's version and the version of the result-file schema it writes.
#pragma once

namespace graphbench {

inline constexpr const char* kToolVersion = "0.1.0";
// Bumped whenever a field of results.json changes meaning or disappears.
inline constexpr int kResultsSchemaVersion = 1;
// The suite-spec schema this binary reads (docs/spec.md).
inline constexpr int kSpecSchemaVersion = 1;

}  // namespace graphbench
