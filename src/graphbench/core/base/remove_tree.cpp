#include "graphbench/core/base/remove_tree.h"

#include <ftw.h>

#include <cstdio>

namespace graphbench {

namespace {

bool g_all_removed = true;  // nftw's callback takes no context; removal runs on one thread

int remove_entry(const char* entry, const struct stat*, int, struct FTW*) {
  if (std::remove(entry) != 0) g_all_removed = false;
  return 0;  // go on with the rest
}

}  // namespace

bool remove_tree(const std::string& path) {
  g_all_removed = true;
  if (nftw(path.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0) return false;
  return g_all_removed;
}

}  // namespace graphbench
