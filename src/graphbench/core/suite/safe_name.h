// Names that become part of a path: a suite's name (the default output directory
// graphbench-out/<suite>) and --workload NAME (configs/NAME.json). A safe name is one path
// component that cannot climb out of its directory or hide: letters, digits, '.', '_' and '-',
// not starting with '.' or '-', at most 100 characters.
#pragma once

#include <string>

namespace graphbench {

inline constexpr const char* kSafeNameRule =
    "1 to 100 letters, digits, '.', '_' or '-', not starting with '.' or '-'";

inline bool is_safe_name(const std::string& name) {
  if (name.empty() || name.size() > 100 || name[0] == '.' || name[0] == '-') return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace graphbench
