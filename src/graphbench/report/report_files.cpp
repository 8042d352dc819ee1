#include "graphbench/report/report_files.h"

#include "graphbench/core/errors.h"
#include "graphbench/report/atomic_file.h"
#include "graphbench/report/csv_writer.h"
#include "graphbench/report/json_io.h"
#include "graphbench/report/markdown_writer.h"

#include <fmt/format.h>

#include <filesystem>
#include <sstream>

namespace graphbench {

OutputFormats parse_output_formats(const std::string& list) {
  OutputFormats formats{false, false, false};
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (item == "json") {
      formats.json = true;
    } else if (item == "csv") {
      formats.csv = true;
    } else if (item == "md") {
      formats.md = true;
    } else {
      throw InputError(fmt::format("--format: unknown format \"{}\" (expected a comma-separated list of json, csv, md)", item));
    }
  }
  if (!formats.json && !formats.csv && !formats.md) throw InputError("--format: no format given (expected json, csv or md)");
  return formats;
}

std::vector<std::string> write_report_files(const RunReport& report, const std::string& directory,
                                            const OutputFormats& formats) {
  const std::filesystem::path dir(directory);
  std::vector<std::string> written;
  auto write = [&](const char* name, const std::string& content) {
    const auto path = dir / name;
    write_file_atomically(path, content);
    written.push_back(path.string());
  };
  if (formats.json) write("results.json", to_json(report).dump(2) + "\n");
  if (formats.csv) write("results.csv", render_csv(report));
  if (formats.md) write("results.md", render_markdown(report));
  return written;
}

}  // namespace graphbench
