// An NVTX range for its lifetime, so that Nsight Systems shows graphbench's phases ("case NAME",
// "validate", "time", ...). Around phases only, never a timed step; nothing without NVTX headers.
#pragma once

#include "graphbench/core/base/non_copyable.h"

#include <string>

namespace graphbench {

class NvtxRange : NonCopyable {
 public:
  explicit NvtxRange(const std::string& name);
  ~NvtxRange();
};

}  // namespace graphbench
