#include "graphbench/core/clocks/throttle_reasons.h"

#include <fmt/format.h>

namespace graphbench {

constexpr std::uint64_t kThrottleIdle = 0x1;  // nvml.h's nvmlClocksEventReasonGpuIdle

std::vector<std::string> throttle_reason_names(std::uint64_t mask) {
  struct Named {
    std::uint64_t bit;
    const char* name;
  };
  static constexpr Named kNames[] = {
      {kThrottleIdle, "idle"},           {0x2, "applications clocks setting"}, {0x4, "SW power cap"},
      {0x8, "HW slowdown"},              {0x10, "sync boost"},                 {0x20, "SW thermal"},
      {0x40, "HW thermal"},              {0x80, "HW power brake"},             {0x100, "display clocks"},
  };
  std::vector<std::string> names;
  std::uint64_t known = 0;
  for (const Named& n : kNames) {
    known |= n.bit;
    if ((mask & n.bit) != 0) names.emplace_back(n.name);
  }
  for (int bit = 0; bit < 64; ++bit) {
    const std::uint64_t b = std::uint64_t{1} << bit;
    if ((mask & b) != 0 && (known & b) == 0) names.push_back(fmt::format("unknown (0x{:x})", b));
  }
  return names;
}

std::vector<std::string> throttle_reasons_under_load(std::uint64_t mask) {
  return throttle_reason_names(mask & ~kThrottleIdle);
}

}  // namespace graphbench
