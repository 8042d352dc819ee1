// Facts fixed when graphbench was built.
#pragma once

#include <string>

namespace graphbench {

struct BuildInfo {
  std::string build_type;  // CMAKE_BUILD_TYPE
  std::string compiler;
  std::string source_dir;
  std::string libtorch_version;
  bool with_cuda = false;
};

const BuildInfo& build_info();

}  // namespace graphbench
