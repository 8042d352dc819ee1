// Device-time and counts rows (see verdict_rule.h).
#include "graphbench/core/compare/row_kind.h"
#include "graphbench/core/compare/verdict_rule.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace graphbench::compare_detail {

namespace {

// A count of a record: absent where the record does not carry it.
struct Count {
  const char* name;
  std::function<std::optional<double>(const ResultRecord&)> read;
  bool bytes = false;
};

std::optional<double> sum_of_graphs(const ResultRecord& r, std::optional<std::int64_t> GraphFacts::*field) {
  if (r.graphs.empty()) return std::nullopt;
  double sum = 0.0;
  for (const GraphFacts& g : r.graphs) {
    if (!(g.*field)) return std::nullopt;
    sum += static_cast<double>(*(g.*field));
  }
  return sum;
}

const std::vector<Count>& counts() {
  static const std::vector<Count> all = {
      {"kernels per step", [](const ResultRecord& r) { return r.profile ? std::optional(r.profile->kernels_per_step) : std::nullopt; }},
      {"copies per step", [](const ResultRecord& r) { return r.profile ? std::optional(r.profile->copies_per_step) : std::nullopt; }},
      {"launches per step", [](const ResultRecord& r) { return r.launches_per_step; }},
      {"graphs per step",
       [](const ResultRecord& r) {
         return r.graphs_per_step ? std::optional(static_cast<double>(*r.graphs_per_step)) : std::nullopt;
       }},
      {"graph nodes", [](const ResultRecord& r) { return sum_of_graphs(r, &GraphFacts::nodes); }},
      {"graph kernel nodes", [](const ResultRecord& r) { return sum_of_graphs(r, &GraphFacts::kernel_nodes); }},
      {"graph pool",
       [](const ResultRecord& r) {
         return r.memory && r.memory->graph_pool_bytes ? std::optional(static_cast<double>(*r.memory->graph_pool_bytes))
                                                       : std::nullopt;
       },
       true},
  };
  return all;
}

std::string count_text(const Count& count, double value) {
  if (count.bytes) return fmt::format("{:.1f} MiB", value / (1024.0 * 1024.0));
  return value == std::floor(value) ? fmt::format("{:.0f}", value) : fmt::format("{:.2f}", value);
}

// Equal as counts: the profile's per-step figures are means over the profiled steps, so allow for
// the rounding of a division, nothing more.
bool same_count(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

}  // namespace

std::optional<Comparison> device_time_row(const ResultRecord& base, const ResultRecord& cur,
                                          const CompareOptions& options) {
  if (!base.profile || !cur.profile) return std::nullopt;
  const double b = base.profile->busy_us_per_step;
  const double c = cur.profile->busy_us_per_step;
  if (!(b > 0.0) || !(c > 0.0)) return std::nullopt;
  Comparison row = empty_row(base.case_name, base.variant, kMeasureDeviceTime, Verdict::kNotCompared, "");
  row.baseline_median_us = b;
  row.current_median_us = c;
  CompareOptions floor_only = options;
  floor_only.threshold = std::max(options.threshold, kDeviceTimeFloor);
  judge_point_ratio(row, c / b, kNaN, kNaN, floor_only);
  row.rule = fmt::format("device time, floor {:.0f}%", floor_only.threshold * 100.0);
  row.note = fmt::format("{}; the kernel profile's busy device time per step ({} and {} steps profiled), against "
                         "the {:.0f}% it can move between runs of unchanged code",
                         row.verdict == Verdict::kSlower   ? fmt::format("{:.2f}x more device time", row.ratio)
                         : row.verdict == Verdict::kFaster ? fmt::format("{:.2f}x less device time", 1.0 / row.ratio)
                                                           : std::string("within its floor"),
                         base.profile->steps, cur.profile->steps, floor_only.threshold * 100.0);
  return row;
}

std::optional<Comparison> counts_row(const ResultRecord& base, const ResultRecord& cur) {
  std::vector<std::string> changed, same;
  for (const Count& count : counts()) {
    const std::optional<double> b = count.read(base);
    const std::optional<double> c = count.read(cur);
    if (!b || !c) continue;
    if (same_count(*b, *c)) {
      same.push_back(fmt::format("{} {}", count.name, count_text(count, *b)));
    } else {
      changed.push_back(fmt::format("{} {} -> {}", count.name, count_text(count, *b), count_text(count, *c)));
    }
  }
  if (changed.empty() && same.empty()) return std::nullopt;
  Comparison row = empty_row(base.case_name, base.variant, kMeasureCounts,
                             changed.empty() ? Verdict::kSame : Verdict::kChanged, "");
  row.rule = "counts, exact";
  row.note = changed.empty() ? fmt::format("unchanged: {}", fmt::join(same, ", "))
                             : fmt::format("changed: {}", fmt::join(changed, ", "));
  return row;
}

}  // namespace graphbench::compare_detail
