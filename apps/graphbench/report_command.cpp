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
  try {
    for (const auto& written : write_report_files(report, directory, selected)) {
      if (!quiet) std::cerr << "wrote " << written << "\n";
    }
  } catch (const Error& e) {
    // Written over in place, the input may be gone by now (report_files.h): its records are
    // saved as a run's are when its files cannot be written.
    const std::string rescued = rescue_results(report, report.environment.suite, system_temporary_directory(), std::cout);
    std::cerr << fmt::format("graphbench: error: {}\ngraphbench: the {} record(s) of {} were saved to {}\n", e.what(),
                             report.records.size(), results_path, rescued);
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace graphbench::cli
