// Writing a run's result files under one directory as a set (docs/results.md): the directory never
// holds a file of an earlier run beside one of this run. Every selected file is written to a synced
// temporary; then every earlier result file is removed, whatever its format; then the temporaries
// are renamed into place. Temporaries a killed run left are removed by prepare_output_directory.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <string>
#include <vector>

namespace graphbench {

struct OutputFormats {
  bool json = true;
  bool csv = true;
  bool md = true;
  bool gbench = false;
};

// "json,csv,md,gbench" -> formats, results.json always among them (compare reads it: "gbench"
// alone writes results.json and results.gbench.json); InputError naming an unknown format.
OutputFormats parse_output_formats(const std::string& list);

// Before a run: creates `directory` if missing, checks that it is a directory where files can be
// created and that no result file name in it is taken by something other than a file, and
// removes the temporaries of runs that were killed (returned). InputError naming the directory
// and the system's reason otherwise, so that a run never measures for nothing.
std::vector<std::string> prepare_output_directory(const std::string& directory);

// Writes the selected files into `directory` as a set (above); returns their paths.
// graphbench::Error naming the file and the reason on failure.
std::vector<std::string> write_report_files(const RunReport& report, const std::string& directory,
                                            const OutputFormats& formats);

}  // namespace graphbench
