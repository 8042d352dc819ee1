// Room for what a run unpacks before it starts: an AOTInductor package is unpacked into a temporary
// directory when it loads, and a run whose temporary file system is too small for one is refused
// (exit 2) rather than failed case by case.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// One file a case of the run unpacks when it loads.
struct UnpackNeed {
  std::string what;       // "AOTInductor package"
  std::string file;       // the file unpacked
  std::string directory;  // where it is unpacked
  std::uint64_t bytes = 0;  // what it takes there at most
  std::string hint;       // how to give it more room
};

// The need of the run in each directory: the largest of its files there, since a run loads its
// files one at a time (SharedLoadCache).
std::vector<UnpackNeed> largest_unpack_needs(const std::vector<UnpackNeed>& needs);

// Free bytes of a directory's file system, or nullopt (available_bytes of output_space.h).
using AvailableBytesFn = std::function<std::optional<std::uint64_t>(const std::string& directory)>;

// InputError "<what> <file> is unpacked into <directory> when it loads: it needs X there, and only
// Y is free on that file system (<hint>)" for the first directory whose largest need does not fit.
void check_unpack_space(const std::vector<UnpackNeed>& needs, const AvailableBytesFn& available);

}  // namespace graphbench
