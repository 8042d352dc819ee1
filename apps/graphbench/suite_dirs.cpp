// Where suites are found (run_command.h), without LibTorch: the front's --help lists them.
#include "run_command.h"

#include <algorithm>
#include <filesystem>

namespace graphbench::cli {

std::vector<std::string> configs_search_dirs(const std::string& configs_dir) {
  if (!configs_dir.empty()) return {configs_dir};
  return {"configs", (std::filesystem::path(GRAPHBENCH_SOURCE_DIR) / "configs").string()};
}

std::vector<std::string> suite_names(const std::vector<std::string>& dirs) {
  for (const std::filesystem::path dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  return {};
}

}  // namespace graphbench::cli
