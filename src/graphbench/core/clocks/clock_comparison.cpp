#include "graphbench/core/clocks/clock_comparison.h"

#include "graphbench/core/clocks/clock_warnings.h"

#include <fmt/format.h>

namespace graphbench {

namespace {

const ResultRecord* clock_record_of(const RunReport& report, const ResultRecord& like) {
  for (const ResultRecord& r : report.records) {
    if (r.case_name == like.case_name && r.variant == like.variant) return &r;
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> clock_comparison_line(const RunReport& baseline, const RunReport& current) {
  int compared = 0;
  int below = 0;
  const ResultRecord* worst = nullptr;
  double worst_share = 1.0;
  double worst_base = 0.0;
  double worst_current = 0.0;
  for (const ResultRecord& b : baseline.records) {
    const ResultRecord* c = clock_record_of(current, b);
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
