// The interval of a figure measured in several processes (Kalibera and Jones, ISMM 2013): processes
// resampled with replacement, then each drawn process's rounds in circular blocks
// (block_bootstrap.h), eager and the variant paired by round; the figure is the median of the pooled
// numerators (over the pooled denominators' for a ratio). A handful of processes gives too narrow a
// percentile interval, so its log half-widths are expanded by sqrt(n / (n - 1)) t(0.975, n - 1) /
// z(0.975) (Hesterberg's expanded percentile interval, 2015). See docs/measuring.md (repetitions).
#pragma once

#include "graphbench/core/stats/statistics.h"

#include <cstdint>
#include <vector>

namespace graphbench::stats {

// One process's samples: `numerator` (a variant's, or the series whose median is wanted) and
// `denominator` (eager's of the same rounds; null for a median alone).
struct ProcessSamples {
  const std::vector<double>* numerator = nullptr;
  const std::vector<double>* denominator = nullptr;
};

// The 95% interval of median(pooled numerators) [/ median(pooled denominators)], widened to
// contain `point`. Throws std::invalid_argument with fewer than two processes, an empty or null
// series, or resamples < 1.
Interval hierarchical_interval(const std::vector<ProcessSamples>& processes, double point, int resamples = 2000,
                               std::uint64_t seed = 0x9e3779b97f4a7c15ull);

// sqrt(n / (n - 1)) t(0.975, n - 1) / z(0.975): the expansion for n processes (n >= 2).
double small_sample_expansion(int processes);

}  // namespace graphbench::stats
