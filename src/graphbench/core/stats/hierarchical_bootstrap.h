// The interval of a figure measured in several processes (`--repetitions`, the default on a GPU),
// from a bootstrap that resamples at both levels where the variance arises (Kalibera and Jones,
// ISMM 2013): processes with replacement, then, within each process drawn, its rounds in circular
// blocks (block_bootstrap.h), eager and the variant of one process paired by round. The figure is
// the median of the pooled numerator samples (over the pooled denominator samples, for a ratio).
// A percentile interval from a handful of processes is too narrow (the bootstrap's spread of a
// mean is sqrt((n - 1) / n) of the sample's, and it knows nothing of t's tails), so its half-widths
// on the log scale are expanded by sqrt(n / (n - 1)) t(0.975, n - 1) / z(0.975), as Hesterberg's
// expanded percentile interval does ("What Teachers Should Know About the Bootstrap", 2015):
// 1.88 times at n = 4. Resampling the rounds as well as the processes adds their variance twice
// (Davison and Hinkley 1997, section 3.8): the interval errs wide, which an interval meant to hold
// for the next run may. See docs/measuring.md (repetitions).
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
