// Reads a suite file (configs/*.json, schema in docs/spec.md) into a SuiteSpec, validating the whole
// file against the workloads' descriptors before anything runs; the first error throws InputError
// "<file>: <JSON pointer>: expected <what>, got <value>".
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

// Reads and validates the suite file at `path` (kSuiteFromStdin: standard input); InputError when it
// cannot be read, is not JSON (with line and column) or does not follow the schema.
SuiteSpec load_suite_spec(const std::string& path, const std::vector<WorkloadDescriptor>& workloads);

// Validates an already parsed document; `path` is used in messages only.
SuiteSpec parse_suite_spec(const nlohmann::json& doc, const std::string& path,
                           const std::vector<WorkloadDescriptor>& workloads);

// parse_json_text (core/json/json_text.h) for suite files.
nlohmann::json parse_suite_json(const std::string& text, const std::string& path);

}  // namespace graphbench
