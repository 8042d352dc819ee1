// `graphbench compare BASELINE CURRENT`: read both result files, compare, print, exit code
// (run_compare, declared in compare.h).
#include "graphbench/core/compare/compare.h"

#include "graphbench/core/compare/calibration.h"
#include "graphbench/core/report/atomic_file.h"
#include "graphbench/core/report/json_io.h"
#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

#include <filesystem>
#include <ostream>

namespace graphbench {

int run_compare(const std::string& baseline_path, const std::string& current_path,
                const CompareOptions& options, std::ostream& out, const std::string& aa_baseline_path,
                const std::string& calibration_path, const std::string& json_path) {
  const RunReport baseline = read_results_file(baseline_path);
  const RunReport current = read_results_file(current_path);
  RunReport aa;
  if (!aa_baseline_path.empty()) aa = read_results_file(aa_baseline_path);
  GateCalibration calibration;
  CompareOptions calibrated = options;
  if (!calibration_path.empty()) {
    calibration = read_calibration_file(calibration_path);
    calibrated.calibration = &calibration;
  }
  const CompareSources sources{baseline_path, current_path, aa_baseline_path, calibration_path};
  const CompareResult result =
      compare_reports(baseline, current, calibrated, aa_baseline_path.empty() ? nullptr : &aa, sources);
  out << "Baseline: " << baseline_path << "\nCurrent:  " << current_path << "\n";
  if (!aa_baseline_path.empty()) out << "A/A:      " << aa_baseline_path << " (second baseline run: run-to-run noise)\n";
  if (!calibration_path.empty()) {
    const bool beside = calibration_path == calibration_beside(baseline_path);
    out << fmt::format("Calibration: {} ({} records; run-to-run noise of no-change runs, Holm over the rows at "
                       "alpha {}){}\n",
                       calibration_path, calibration.entries.size(), calibration.alpha,
                       beside ? "; found beside the baseline (--no-calibration ignores it)" : "");
  }
  out << "\n" << render_comparison(result, options);
  if (!json_path.empty()) {
    write_file_atomically(json_path, comparison_to_json(result, options, sources).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    out << "wrote " << json_path << "\n";
  }
  return result.exit_code();
}

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
