// NVML's clock throttle reasons ("clocks event reasons" since driver 535): why the SM clock is
// below its maximum, one bit each. The values are nvml.h's, written here so that the CPU build,
// which has no nvml.h, decodes and tests them too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace graphbench {

// The name of every bit set in `mask`, lowest bit first: "idle", "applications clocks setting",
// "SW power cap", "HW slowdown", "sync boost", "SW thermal", "HW thermal", "HW power brake",
// "display clocks", and "unknown (0x...)" for a bit NVML added later. None for 0.
std::vector<std::string> throttle_reason_names(std::uint64_t mask);

// The same without "idle": the reasons that slow a GPU that has work to do. A GPU read between
// two samples is often idle for a moment, which says nothing about the samples.
std::vector<std::string> throttle_reasons_under_load(std::uint64_t mask);

}  // namespace graphbench
