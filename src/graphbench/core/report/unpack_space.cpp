#include "graphbench/core/report/unpack_space.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/text.h"

#include <fmt/format.h>

#include <map>

namespace graphbench {

std::vector<UnpackNeed> largest_unpack_needs(const std::vector<UnpackNeed>& needs) {
  std::vector<UnpackNeed> largest;
  std::map<std::string, std::size_t> index_of;  // directory -> its entry in `largest`
  for (const UnpackNeed& need : needs) {
    const auto found = index_of.find(need.directory);
    if (found == index_of.end()) {
      index_of[need.directory] = largest.size();
      largest.push_back(need);
    } else if (need.bytes > largest[found->second].bytes) {
      largest[found->second] = need;
    }
  }
  return largest;
}

void check_unpack_space(const std::vector<UnpackNeed>& needs, const AvailableBytesFn& available) {
  for (const UnpackNeed& need : largest_unpack_needs(needs)) {
    const std::optional<std::uint64_t> free = available(need.directory);
    if (!free || *free >= need.bytes) continue;
    throw InputError(fmt::format(
        "{} {} is unpacked into {} when it loads: it needs {} ({} bytes) there, and only {} ({} bytes) is free on "
        "that file system ({})",
        need.what, need.file, need.directory, mib_text(need.bytes), need.bytes, mib_text(*free), *free, need.hint));
  }
}

}  // namespace graphbench
