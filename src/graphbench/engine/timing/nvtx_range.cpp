#include "graphbench/engine/timing/nvtx_range.h"

#if defined(GRAPHBENCH_WITH_CUDA) && defined(__has_include)
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>  // header-only NVTX 3, shipped with the CUDA Toolkit
#define GRAPHBENCH_HAVE_NVTX 1
#endif
#endif

namespace graphbench {

#ifdef GRAPHBENCH_HAVE_NVTX
NvtxRange::NvtxRange(const std::string& name) { nvtxRangePushA(name.c_str()); }
NvtxRange::~NvtxRange() { nvtxRangePop(); }
#else
NvtxRange::NvtxRange(const std::string&) {}
NvtxRange::~NvtxRange() = default;
#endif

}  // namespace graphbench
