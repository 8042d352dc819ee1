// Overlap of the intervals of no-change runs (see interval_overlap.h).
#include "graphbench/core/compare/interval_overlap.h"

#include "graphbench/core/stats/block_bootstrap.h"
#include "graphbench/core/stats/bootstrap.h"

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace graphbench {

namespace {

struct RecordIntervals {
  stats::Interval time_blocks, time_independent;
  std::optional<stats::Interval> time_stored, speedup_blocks, speedup_independent, speedup_stored;
};

using Key = std::pair<std::string, std::string>;  // (case, variant)

std::map<Key, RecordIntervals> intervals_of(const RunReport& run) {
  std::map<Key, const ResultRecord*> index;
  for (const ResultRecord& r : run.records) index[{r.case_name, r.variant}] = &r;
  std::map<Key, RecordIntervals> out;
  const std::vector<double> one{1.0};
  for (const ResultRecord& r : run.records) {
    if (!has_ok_samples(&r)) continue;
    RecordIntervals in;
    in.time_blocks = stats::median_interval_by_rounds(r.samples_us);
    in.time_independent = stats::ratio_of_medians(r.samples_us, one).ci95;
    if (r.repetitions && r.repetitions->median_ci95) {
      in.time_stored = *r.repetitions->median_ci95;
    } else if (r.stats && std::isfinite(r.rel_noise) && r.rel_noise > 0.0) {
      in.time_stored = stats::Interval{r.stats->median * (1.0 - r.rel_noise), r.stats->median * (1.0 + r.rel_noise)};
    }
    const auto eager = index.find({r.case_name, "eager"});
    if (r.variant != "eager" && eager != index.end() && has_ok_samples(eager->second)) {
      const std::vector<double>& e = eager->second->samples_us;
      in.speedup_blocks = stats::ratio_by_rounds({stats::RunSamples{{&e}, {&r.samples_us}}}).ci95;
      in.speedup_independent = stats::ratio_of_medians(e, r.samples_us).ci95;
      if (r.speedup_ci95) in.speedup_stored = *r.speedup_ci95;
    }
    out[{r.case_name, r.variant}] = in;
  }
  return out;
}

void count_pair(OverlapCount& c, const stats::Interval& a, const stats::Interval& b) {
  ++c.pairs;
  if (a.low <= b.high && b.low <= a.high) ++c.overlapping;
}

void count_pair(OverlapCount& c, const std::optional<stats::Interval>& a, const std::optional<stats::Interval>& b) {
  if (a && b) count_pair(c, *a, *b);
}

}  // namespace

IntervalOverlap interval_overlap(const std::vector<const RunReport*>& runs) {
  std::vector<std::map<Key, RecordIntervals>> per_run;
  for (const RunReport* run : runs) per_run.push_back(intervals_of(*run));
  IntervalOverlap o;
  for (std::size_t i = 0; i < per_run.size(); ++i) {
    for (std::size_t j = i + 1; j < per_run.size(); ++j) {
      for (const auto& [key, a] : per_run[i]) {
        const auto it = per_run[j].find(key);
        if (it == per_run[j].end()) continue;
        const RecordIntervals& b = it->second;
        count_pair(o.time_blocks, a.time_blocks, b.time_blocks);
        count_pair(o.time_independent, a.time_independent, b.time_independent);
        count_pair(o.time_stored, a.time_stored, b.time_stored);
        count_pair(o.speedup_blocks, a.speedup_blocks, b.speedup_blocks);
        count_pair(o.speedup_independent, a.speedup_independent, b.speedup_independent);
        count_pair(o.speedup_stored, a.speedup_stored, b.speedup_stored);
      }
    }
  }
  return o;
}

}  // namespace graphbench
