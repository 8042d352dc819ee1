// Reads a suite file (configs/*.json) into a SuiteSpec, validating the whole file against the
// workloads' descriptors before anything runs. The first error throws InputError as
// "<file>: <JSON pointer>: expected <what>, got <value>". The schema is in docs/spec.md.
#pragma once

#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace graphbench {

// `--config -`: the suite comes from standard input, and errors name it "<stdin>". Relative
// file names in it (a model's `path`) are relative to the current directory.
inline constexpr const char* kSuiteFromStdin = "-";
inline constexpr const char* kStdinName = "<stdin>";

// Reads and validates the suite file at `path` (kSuiteFromStdin: standard input). Throws
// InputError when the file cannot be read ("<path>: cannot open suite file: No such file or
// directory"), is not JSON ("<path>: invalid JSON at line L, column C: <reason>") or does not
// follow the schema.
SuiteSpec load_suite_spec(const std::string& path, const std::vector<WorkloadDescriptor>& workloads);

// Validates an already parsed document; `path` is used in messages only.
SuiteSpec parse_suite_spec(const nlohmann::json& doc, const std::string& path,
                           const std::vector<WorkloadDescriptor>& workloads);

// Parses JSON text, throwing InputError "<path>: invalid JSON at line L, column C: <reason>"
// (columns count bytes).
nlohmann::json parse_suite_json(const std::string& text, const std::string& path);

}  // namespace graphbench
