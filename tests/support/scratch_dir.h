// A temporary directory for one test, removed with everything in it when the test ends.
//
// Removal walks the tree with POSIX nftw rather than std::filesystem::remove_all: the CUDA
// LibTorch of the Python wheels exports a remove_all of its own (built into libtorch.so from an
// older libstdc++), the dynamic linker binds a test binary's call to that copy, and it crashes.
#pragma once

#include <ftw.h>
#include <stdlib.h>

#include <cstdio>
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
  ~ScratchDir() {
    // Depth first, links not followed; whatever cannot be removed is left behind.
    const auto remove_entry = [](const char* entry, const struct stat*, int, struct FTW*) {
      std::remove(entry);
      return 0;
    };
    nftw(path_.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  }
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
