#include "graphbench/core/compare/result_paths.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

#include <filesystem>

namespace graphbench {

std::string results_file_of(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return path;  // a file (or nothing: the reader says so)
  const std::filesystem::path file = std::filesystem::path(path) / "results.json";
  if (!std::filesystem::is_regular_file(file, ec)) {
    throw InputError(fmt::format("{}: a folder without results.json (give a run's output folder, -o DIR, or its "
                                 "results.json)",
                                 path));
  }
  return file.string();
}

std::string calibration_beside(const std::string& results_file) {
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::path(results_file).parent_path() / kCalibrationFileName;
  return std::filesystem::is_regular_file(file, ec) ? file.string() : std::string();
}

std::string calibration_output_of(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return path;
  return (std::filesystem::path(path) / kCalibrationFileName).string();
}

}  // namespace graphbench
