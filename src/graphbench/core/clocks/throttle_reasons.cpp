#include "graphbench/core/clocks/throttle_reasons.h"

#include <fmt/format.h>

namespace graphbench {

std::vector<std::string> throttle_reason_names(std::uint64_t mask) {
  struct Named {
    std::uint64_t bit;
    const char* name;
  };
  static constexpr Named kNames[] = {
      {kThrottleIdle, "idle"},
      {kThrottleApplicationsClocksSetting, "applications clocks setting"},
      {kThrottleSwPowerCap, "SW power cap"},
      {kThrottleHwSlowdown, "HW slowdown"},
      {kThrottleSyncBoost, "sync boost"},
      {kThrottleSwThermal, "SW thermal"},
      {kThrottleHwThermal, "HW thermal"},
      {kThrottleHwPowerBrake, "HW power brake"},
      {kThrottleDisplayClocks, "display clocks"},
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
