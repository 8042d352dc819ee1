// Intervals that respect how samples were taken: the sampler (core/sampling/sampler.h) takes one sample
// of every variant per round, so sample k of each variant of a case comes from round k, and
// consecutive rounds are correlated (clocks, a busy host, drift: lag-1 autocorrelations of 0.2 to
// 0.9 on a GPU). Resampling single samples as if they were independent (bootstrap.h) then gives
// intervals far too narrow. Here whole rounds are resampled in blocks of consecutive rounds (the
// circular block bootstrap of Politis and Romano, 1992), every sample set of one run with the same
// rounds, so a ratio of two variants of a run stays paired by round and the drift they share
// cancels. The block length comes from the data (block_length). Deterministic for a given seed.
// See docs/measuring.md (intervals).
#pragma once

#include "graphbench/core/stats/bootstrap.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace graphbench::stats {

// The block length of the circular block bootstrap for a series, chosen from its autocorrelation
// by the rule of Politis and White (2004) with the correction of Patton, Politis and White (2009):
// b = (2 G^2 / D)^(1/3) n^(1/3), where G and D are flat-top-kernel sums of the autocovariances up
// to twice the last lag whose autocorrelation is significant. 1 for a series without significant
// autocorrelation (the ordinary bootstrap), at most min(3 sqrt(n), n / 3). 1 for fewer than 3 values.
std::size_t block_length(const std::vector<double>& series);

// The sample sets of one run that were taken in the same rounds (sample k of each in round k):
// one index sequence of resampled rounds is drawn per run and used for all of them. A set of
// another length than the first gets its own sequence (it was not taken in the same rounds).
struct RunSamples {
  std::vector<const std::vector<double>*> numerators;
  std::vector<const std::vector<double>*> denominators;
};

// The product over runs of prod(median(numerators)) / prod(median(denominators)), with a 95%
// percentile interval from the circular block bootstrap of each run's rounds (runs resampled
// independently of each other; each run's block length is the largest block_length of its sets),
// widened to contain the point estimate. Throws std::invalid_argument when there is no run, a run
// has no set at all, a set is empty or null, or resamples < 1.
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
