#include "graphbench/core/clocks/conditions_log.h"
#include <fmt/format.h>


namespace graphbench {

namespace {

void add_throttle_mask(std::optional<std::uint64_t>& seen, const std::optional<std::uint64_t>& mask) {
  if (mask) seen = seen.value_or(0) | *mask;
}

}  // namespace

void ConditionsLog::at_start(const GpuReading& reading) {
  if (started_) return;
  started_ = true;
  start_ = reading;  // its throttle reasons are from before the samples: not counted
}

void ConditionsLog::after_sample(const GpuReading& reading) {
  if (reading.sm_clock_mhz) {
    last_sm_mhz_ = reading.sm_clock_mhz;
    sm_sum_ += *reading.sm_clock_mhz;
    ++sm_count_;
  }
  add_throttle_mask(throttle_seen_, reading.throttle_mask);
}

void ConditionsLog::at_end(const GpuReading& reading) { end_ = reading; }

void ConditionsLog::fill(ResultRecord& record, std::optional<double> reference_mhz) const {
  record.sm_clock_start_mhz = start_.sm_clock_mhz;
  record.sm_clock_end_mhz = last_sm_mhz_ ? last_sm_mhz_ : end_.sm_clock_mhz;
  GpuConditions c;
  c.memory_clock_mhz = {start_.memory_clock_mhz, end_.memory_clock_mhz};
  c.temperature_c = {start_.temperature_c, end_.temperature_c};
  c.power_w = {start_.power_w, end_.power_w};
  if (sm_count_ > 0) c.sm_clock_mean_mhz = sm_sum_ / sm_count_;
  if (throttle_seen_) c.throttle_reasons = throttle_reasons_under_load(*throttle_seen_);
  const bool any = c.memory_clock_mhz.any() || c.temperature_c.any() || c.power_w.any() || c.sm_clock_mean_mhz ||
                   c.throttle_reasons || record.sm_clock_start_mhz || record.sm_clock_end_mhz;
  if (!any) return;  // nothing read: no NVML, or the CPU
  c.sm_clock_reference_mhz = reference_mhz;
  record.gpu_conditions = c;
}

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
