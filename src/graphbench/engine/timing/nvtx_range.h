// An NVTX range for its lifetime, so that a run under Nsight Systems (nsys profile graphbench ...)
// reads as graphbench's own phases: "case NAME", "validate", "time", "profile", "back-to-back",
// "trace", a variant's name inside them. Around phases only, never around a timed step. Nothing in
// a build without CUDA's NVTX headers; nearly nothing when no tool listens.
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
