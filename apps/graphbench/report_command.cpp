// `graphbench report RESULTS.json [-o DIR] [--format LIST]`: the result files of an earlier run
// written again from its results.json, without running anything: results.md, results.csv and
// results.gbench.json in this version's layout, and the verdicts derived from the records (the
// sweeps' in results.json and results.md) judged again by this version's rules.
#include "run_command.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/record/launches.h"
#include "graphbench/core/report/json_io.h"
#include "graphbench/core/report/report_files.h"
#include "graphbench/core/report/rescue_file.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>

namespace graphbench::cli {

int report_command(const std::string& results_path, const std::string& output, const std::string& formats,
                   bool quiet) {
  const OutputFormats selected = parse_output_formats(formats);
  RunReport report = read_results_file(results_path);
  // Figures this version works out from the graphs' facts, worked out again (a file written
  // before segmented scopes summed the snapshots of a pool the step's graphs share).
  for (ResultRecord& record : report.records) {
    if (record.memory && !record.graphs.empty()) record.memory->graph_pool_bytes = graph_pools_bytes(record);
  }
  std::string directory = output;
  if (directory.empty()) {
    directory = std::filesystem::path(results_path).parent_path().string();
    if (directory.empty()) directory = ".";
  }
  prepare_output_directory(directory);
  // Written over in place, the input may be gone by now (report_files.h): its records are
  // saved as a run's are when its files cannot be written.
  return write_or_rescue(report, report.environment.suite, directory, selected, quiet ? nullptr : &std::cerr,
                         results_path);
}

int write_or_rescue(const RunReport& report, const std::string& suite, const std::string& directory,
                    const OutputFormats& formats, std::ostream* log, const std::string& records_of,
                    const std::string& after) {
  try {
    for (const auto& written : write_report_files(report, directory, formats)) {
      if (log != nullptr) *log << "wrote " << written << "\n";
    }
  } catch (const Error& e) {
    // Nothing measured is lost: the records go to a file of their own (or standard output).
    const std::string rescued = rescue_results(report, suite, system_temporary_directory(), std::cout);
    std::cerr << fmt::format("graphbench: error: {}\ngraphbench: the {} record(s) of {} were saved to {}{}\n", e.what(),
                             report.records.size(), records_of, rescued, after);
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace graphbench::cli
