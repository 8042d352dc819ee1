// results.json <-> RunReport (the layout of docs/results.md, schema_version 1). Every key is
// written, absent optional values as null, never 0 (but for the keys few records have: data_parallel,
// repetitions, scope when not "full", graphs_per_step, launches_per_step, the top-level "scopes").
// Non-finite numbers are written as null; rel_noise = infinity reads back as infinity, others as NaN.
// Reading requires schema_version, records and each record's case, workload, variant, kind, mode,
// dtype, device and status; any other key may be absent (its default), must have its documented type
// when present, and unknown keys are ignored. Errors: InputError "<file>: <JSON pointer>: <what is
// wrong>". stats.count is the number of samples_us; host_stats is recomputed from host_samples_us.
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
