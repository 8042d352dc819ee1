// This machine's name, as the environment block and the ranks' node keys give it.
#pragma once

#include <unistd.h>

#include <string>

namespace graphbench {

// gethostname's answer, or `unknown` where it fails.
inline std::string host_name(const std::string& unknown = "?") {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return unknown;
  return name;
}

}  // namespace graphbench
