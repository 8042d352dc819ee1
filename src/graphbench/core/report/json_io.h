// results.json <-> RunReport (the layout of docs/results.md, schema_version 1).
//
// Writing: every key is always written; absent optional values are written as null, never as 0.
// (Keys of facts few records have are written only where they apply: data_parallel, repetitions,
// scope when not "full", graphs_per_step, launches_per_step; and the top-level "scopes".)
// The file's schema_version is always kResultsSchemaVersion. Non-finite numbers cannot be stored
// in JSON: rel_noise = infinity (no interval, fewer than 6 samples) is written as null and read
// back as infinity; any other non-finite number is written as null and read back as NaN.
//
// Reading: required keys are schema_version, records, and in every record case, workload,
// variant, kind, mode, dtype, device and status. Any other key may be absent and then reads as
// its default (empty, 0 or no value); a key that is present must have the documented type
// (null is accepted for optional values). Unknown keys are ignored (new fields may appear
// without a schema bump). Every error is an InputError "<file>: <JSON pointer>: <what is wrong>",
// e.g. "base.json: /records/3/samples_us: expected an array of numbers, got "x"".
//
// Derived values: stats.count is the number of samples_us; host_stats holds host_median_us, the
// rest of it recomputed from host_samples_us (the file stores only the host median).
#pragma once

#include "graphbench/core/record/result_record.h"

#include <nlohmann/json.hpp>

#include <string>

namespace graphbench {

nlohmann::json to_json(const RunReport& report);

// `source_name` names the file in error messages.
RunReport report_from_json(const nlohmann::json& document, const std::string& source_name);

// Reads and parses `path`; InputError when it cannot be opened, is not valid JSON (with line and
// column), has no or a newer schema_version, or any field is missing or mistyped.
RunReport read_results_file(const std::string& path);

}  // namespace graphbench
