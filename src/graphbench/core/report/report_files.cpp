#include "graphbench/core/report/report_files.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/report/atomic_file.h"
#include "graphbench/core/report/writers.h"
#include "graphbench/core/report/json_io.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace graphbench {

namespace {

namespace fs = std::filesystem;

constexpr const char* kJsonFile = "results.json";
constexpr const char* kCsvFile = "results.csv";
constexpr const char* kMarkdownFile = "results.md";
constexpr const char* kGbenchFile = "results.gbench.json";
constexpr const char* kProbeFile = "graphbench-probe";

[[noreturn]] void fail_directory(const std::string& directory, const std::string& reason) {
  throw InputError(fmt::format("output directory {}: {} (give a writable directory with -o DIR)", directory, reason));
}

// Creates and removes a temporary file, as writing the results will.
void probe_writable(const fs::path& dir, const std::string& directory) {
  const fs::path probe = temporary_path_for(dir / kProbeFile);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) fail_directory(directory, fmt::format("cannot create a file there: {}", std::strerror(errno)));
  ::close(fd);
  ::unlink(probe.c_str());
}

// JSON text; invalid UTF-8 (from a path or a system message in a reason) becomes U+FFFD instead
// of making the whole file unwritable.
std::string json_text(const nlohmann::json& document) {
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// Every result file graphbench writes, each format's, selected or not.
const std::vector<std::string> kResultFileNames = {kJsonFile, kCsvFile, kMarkdownFile, kGbenchFile};

}  // namespace

OutputFormats parse_output_formats(const std::string& list) {
  // results.json is always written: `compare` and the plot scripts read it, and the set rule
  // removes an earlier run's results.json, so a run without one would leave nothing to compare.
  OutputFormats formats{true, false, false, false};
  bool any = false;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    any = true;
    if (item == "json") {
      formats.json = true;
    } else if (item == "csv") {
      formats.csv = true;
    } else if (item == "md") {
      formats.md = true;
    } else if (item == "gbench") {
      formats.gbench = true;
    } else {
      throw InputError(fmt::format("--format: unknown format \"{}\" (expected a comma-separated list of json, csv, md, gbench)", item));
    }
  }
  if (!any) {
    throw InputError("--format: no format given (expected json, csv, md or gbench)");
  }
  return formats;
}

std::vector<std::string> prepare_output_directory(const std::string& directory) {
  if (directory.empty()) fail_directory("\"\"", "empty path");
  const fs::path dir(directory);
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) fail_directory(directory, "not a directory");
  fs::create_directories(dir, ec);
  if (ec && !fs::is_directory(dir)) fail_directory(directory, "cannot create it: " + ec.message());
  for (const auto& name : kResultFileNames) {
    const fs::file_status status = fs::symlink_status(dir / name, ec);
    if (fs::exists(status) && !fs::is_regular_file(status)) {
      fail_directory(directory, fmt::format("{} exists and is not a regular file", name));
    }
  }
  std::vector<std::string> names = kResultFileNames;
  names.push_back(kProbeFile);
  std::vector<std::string> removed = remove_stale_temporaries(dir, names);
  probe_writable(dir, directory);
  return removed;
}

std::vector<std::string> write_report_files(const RunReport& report, const std::string& directory,
                                            const OutputFormats& formats) {
  const fs::path dir(directory);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec && !fs::is_directory(dir)) throw Error(fmt::format("{}: cannot create directory: {}", directory, ec.message()));

  // 1. Every selected file to a temporary (nothing of the earlier set is touched yet).
  std::vector<PendingFile> files;
  if (formats.json) files.emplace_back(dir / kJsonFile, json_text(to_json(report)));
  if (formats.csv) files.emplace_back(dir / kCsvFile, render_csv(report));
  if (formats.md) files.emplace_back(dir / kMarkdownFile, render_markdown(report));
  if (formats.gbench) files.emplace_back(dir / kGbenchFile, json_text(to_gbench_json(report)));

  // 2. The earlier run's files go, every format: none may pass for a file of this run.
  for (const auto& name : kResultFileNames) {
    const fs::path old = dir / name;
    if (::unlink(old.c_str()) != 0 && errno != ENOENT) {
      throw Error(fmt::format("{}: cannot remove the file of an earlier run: {}", old.string(), std::strerror(errno)));
    }
  }

  // 3. The new set into place.
  std::vector<std::string> written;
  for (PendingFile& file : files) {
    file.commit();
    written.push_back(file.path().string());
  }
  sync_directory(dir);
  return written;
}

}  // namespace graphbench
