// `graphbench run --config FILE` and `graphbench --workload NAME`: load and filter the suite,
// run it, write and print the results. Returns the exit code.
#pragma once

#include "options.h"

#include "graphbench/core/report/report_files.h"

#include <ostream>
#include <string>
#include <vector>

namespace graphbench::cli {

int run_command(const RunOptions& options, const std::string& command_line);

// `graphbench report RESULTS.json`: writes the result files of `formats` ("json,csv,md", ...)
// again from an earlier run's results.json into `output` (default: the file's folder), as a set
// (report_files.h); the derived verdicts (sweeps) judged again. Returns the exit code.
int report_command(const std::string& results_path, const std::string& output, const std::string& formats, bool quiet);

// Writes `report`'s files of `formats` into `directory`, each said on `log` (null: none): kExitOk. Where they
// cannot be, its records go to a file of their own (rescue_file.h), standard error saying "the N record(s) of
// `records_of` were saved to FILE`after`": kExitBadInput.
int write_or_rescue(const RunReport& report, const std::string& suite, const std::string& directory,
                    const OutputFormats& formats, std::ostream* log, const std::string& records_of,
                    const std::string& after = "");

// `graphbench list`: workloads (with their parameters), variants and the suites in configs/.
int list_command(const std::string& configs_dir);

// Where suites are looked for: --configs-dir if given, else ./configs and the source tree's.
std::vector<std::string> configs_search_dirs(const std::string& configs_dir);

// The suite names (file stems of *.json) of the first of `dirs` that exists, sorted.
std::vector<std::string> suite_names(const std::vector<std::string>& dirs);

// "--suite blog --filter 'one-kernel'" for each suite of `dirs` (the first that exists) with a
// case of `workload`: where a workload's name given as a suite's finds its cases.
std::vector<std::string> suites_with_workload(const std::vector<std::string>& dirs, const std::string& workload);

}  // namespace graphbench::cli
