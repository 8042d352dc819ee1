// Writing a run's result files: results.json, results.csv and results.md under one directory,
// each written whole (temporary file, then rename) or not at all.
#pragma once

#include "graphbench/record/result_record.h"

#include <string>
#include <vector>

namespace graphbench {

struct OutputFormats {
  bool json = true;
  bool csv = true;
  bool md = true;
};

// "json,csv,md" -> formats; InputError naming an unknown format.
OutputFormats parse_output_formats(const std::string& list);

// Writes the selected files into `directory` (created if missing); returns their paths.
std::vector<std::string> write_report_files(const RunReport& report, const std::string& directory,
                                            const OutputFormats& formats);

}  // namespace graphbench
