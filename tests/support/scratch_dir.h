// A temporary directory for one test, removed with everything in it when the test ends (by
// remove_tree: core/base/remove_tree.h says why not std::filesystem::remove_all).
#pragma once

#include "graphbench/core/base/remove_tree.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace graphbench::testing {

class ScratchDir {
 public:
  // A new directory named PREFIX-XXXXXX under $TMPDIR (else /tmp).
  explicit ScratchDir(const std::string& prefix) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/" + prefix + "-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~ScratchDir() { remove_tree(path_.string()); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Writes `text` to the file `name` in the directory; its path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

}  // namespace graphbench::testing
