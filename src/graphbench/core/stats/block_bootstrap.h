// Intervals that respect how samples were taken: sample k of each variant comes from round k, and
// consecutive rounds are correlated (drift, a busy host), so independent resampling (bootstrap.h)
// gives intervals far too narrow. Here whole rounds are resampled in blocks (the circular block
// bootstrap of Politis and Romano, 1992), every sample set of one run with the same rounds, so a
// ratio of two variants stays paired and their shared drift cancels. Deterministic for a seed.
// See docs/measuring.md (intervals).
#pragma once

#include "graphbench/core/stats/bootstrap.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace graphbench::stats {

// The block length for a series by the rule of Politis and White (2004), corrected by Patton,
// Politis and White (2009): 1 without significant autocorrelation (or below 3 values), at most
// min(3 sqrt(n), n / 3).
std::size_t block_length(const std::vector<double>& series);

// The sample sets of one run taken in the same rounds: one sequence of resampled rounds serves
// them all (a set of another length gets its own).
struct RunSamples {
  std::vector<const std::vector<double>*> numerators;
  std::vector<const std::vector<double>*> denominators;
};

// The product over runs of prod(median(numerators)) / prod(median(denominators)), with a 95%
// percentile interval from the block bootstrap of each run (runs independent; the run's largest
// block_length), widened to contain the estimate. std::invalid_argument without a run, for a run
// without sets, an empty or null set, or resamples < 1.
RatioEstimate ratio_by_rounds(const std::vector<RunSamples>& runs, int resamples = 2000,
                              std::uint64_t seed = 0x9e3779b97f4a7c15ull);

// The 95% interval of the median of one series by the same block bootstrap. Throws
// std::invalid_argument on an empty series or resamples < 1.
Interval median_interval_by_rounds(const std::vector<double>& samples, int resamples = 2000,
                                   std::uint64_t seed = 0x9e3779b97f4a7c15ull);

// Relative noise of the median: half the width of median_interval_by_rounds over the median.
// Infinity with fewer than 6 samples or a median of 0 with a spread.
double median_block_noise(const std::vector<double>& samples, int resamples = 2000,
                          std::uint64_t seed = 0x9e3779b97f4a7c15ull);

}  // namespace graphbench::stats
