#include "graphbench/core/clocks/clock_warnings.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace graphbench {

std::optional<double> sm_clock_ran_at(const ResultRecord& r) {
  if (r.gpu_conditions && r.gpu_conditions->sm_clock_mean_mhz) return r.gpu_conditions->sm_clock_mean_mhz;
  if (r.sm_clock_start_mhz && r.sm_clock_end_mhz) return (*r.sm_clock_start_mhz + *r.sm_clock_end_mhz) / 2.0;
  if (r.sm_clock_start_mhz) return r.sm_clock_start_mhz;
  return r.sm_clock_end_mhz;
}

bool clocks_apart(double a_mhz, double b_mhz) {
  const double higher = std::max(a_mhz, b_mhz);
  const double lower = std::min(a_mhz, b_mhz);
  return higher > 0 && (higher - lower) / higher > kClocksApartShare;
}

std::vector<std::string> variant_clock_warnings(const ResultRecord& r) {
  std::vector<std::string> out;
  if (!r.gpu_conditions) return out;
  const GpuConditions& c = *r.gpu_conditions;
  if (c.throttle_reasons && !c.throttle_reasons->empty()) {
    out.push_back(fmt::format("throttled during its samples: NVML reports {}; its times are those of a slowed GPU",
                              fmt::join(*c.throttle_reasons, ", ")));
  }
  if (r.sm_clock_end_mhz && c.sm_clock_reference_mhz && *c.sm_clock_reference_mhz > 0 &&
      *r.sm_clock_end_mhz < kClockedDownShare * *c.sm_clock_reference_mhz) {
    out.push_back(fmt::format("clocked down: SM clock {:.0f} MHz at the end of its samples, {:.0f}% below the "
                              "reference clock {:.0f} MHz",
                              *r.sm_clock_end_mhz, 100.0 * (1.0 - *r.sm_clock_end_mhz / *c.sm_clock_reference_mhz),
                              *c.sm_clock_reference_mhz));
  }
  return out;
}

void add_clock_warnings(const std::vector<ResultRecord*>& case_records) {
  const ResultRecord* fastest = nullptr;
  for (ResultRecord* r : case_records) {
    if (r->status != RecordStatus::kOk) continue;
    for (auto& w : variant_clock_warnings(*r)) r->warnings.push_back(std::move(w));
    const auto clock = sm_clock_ran_at(*r);
    if (clock && (fastest == nullptr || *clock > *sm_clock_ran_at(*fastest))) fastest = r;
  }
  if (fastest == nullptr) return;
  const double top = *sm_clock_ran_at(*fastest);
  for (ResultRecord* r : case_records) {
    if (r->status != RecordStatus::kOk || r == fastest) continue;
    const auto clock = sm_clock_ran_at(*r);
    if (!clock || !clocks_apart(*clock, top)) continue;
    r->warnings.push_back(fmt::format("clocks apart: ran at SM {:.0f} MHz, {:.1f}% below {}'s {:.0f} MHz in the "
                                      "same case (over 5%): the comparison mixes two speeds of the GPU",
                                      *clock, 100.0 * (1.0 - *clock / top), fastest->variant, top));
  }
}

std::optional<std::string> clock_comparison_line(const RunReport& baseline, const RunReport& current) {
  int compared = 0;
  int below = 0;
  const ResultRecord* worst = nullptr;
  double worst_share = 1.0;
  double worst_base = 0.0;
  double worst_current = 0.0;
  for (const ResultRecord& b : baseline.records) {
    const ResultRecord* c = current.find(b.case_name, b.variant);
    if (c == nullptr || b.status != RecordStatus::kOk || c->status != RecordStatus::kOk) continue;
    const auto base_mhz = sm_clock_ran_at(b);
    const auto current_mhz = sm_clock_ran_at(*c);
    if (!base_mhz || !current_mhz || *base_mhz <= 0) continue;
    ++compared;
    if (*current_mhz >= *base_mhz || !clocks_apart(*current_mhz, *base_mhz)) continue;
    ++below;
    const double share = *current_mhz / *base_mhz;
    if (worst == nullptr || share < worst_share) {
      worst = c;
      worst_share = share;
      worst_base = *base_mhz;
      worst_current = *current_mhz;
    }
  }
  if (below == 0) return std::nullopt;
  return fmt::format("clocks: {} of {} records ran at SM clocks more than 5% below the baseline's (furthest: {}/{} at "
                     "{:.0f} MHz against {:.0f} MHz, {:.1f}% below); a slower figure there may be the GPU's clocks, "
                     "not the code (not a failure by itself)",
                     below, compared, worst->case_name, worst->variant, worst_current, worst_base,
                     100.0 * (1.0 - worst_share));
}

}  // namespace graphbench
