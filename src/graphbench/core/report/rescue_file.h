// When the result files cannot be written at the end of a run (a full disk, a directory removed
// under it), what was measured is not lost: the records are written as results.json would hold
// them to a new file in the system's temporary directory ($TMPDIR, else /tmp), or, if that fails
// too, to standard output, and the error names where they went.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <ostream>
#include <string>

namespace graphbench {

// Writes `report` (results.json's format) to a new file graphbench-rescued-SUITE-XXXXXX.json in
// `temporary_directory` and returns its path; if that fails, writes it to `fallback` and returns
// "standard output". `suite` names the file (any character outside [A-Za-z0-9._-] becomes '_').
std::string rescue_results(const RunReport& report, const std::string& suite, const std::string& temporary_directory,
                           std::ostream& fallback);

// $TMPDIR where set and not empty, else /tmp.
std::string system_temporary_directory();

}  // namespace graphbench
