// Bootstrap intervals of ratios of medians: the speedup of a variant (eager's median over the
// variant's) and the compare gate's ratios, which may multiply several medians, e.g.
// (median(a) * median(b)) / (median(c) * median(d)). Deterministic for a given seed (the generator
// of core/stats/random.h gives the same draws on every platform).
#pragma once

#include "graphbench/core/stats/statistics.h"

#include <cstdint>
#include <vector>

namespace graphbench::stats {

struct RatioEstimate {
  double ratio = 0.0;
  Interval ci95;
};

// prod(median(numerators)) / prod(median(denominators)) with a 95% percentile bootstrap interval
// (widened to contain the point estimate: a percentile interval of a discrete statistic can miss
// it on tiny or very skewed samples), each set resampled independently so the noise of every set
// propagates. Throws std::invalid_argument when a set is empty or resamples < 1.
RatioEstimate ratio_of_median_products(const std::vector<const std::vector<double>*>& numerators,
                                       const std::vector<const std::vector<double>*>& denominators,
                                       int resamples = 2000, std::uint64_t seed = 0x9e3779b97f4a7c15ull);

// median(numerator) / median(denominator): the one-set case of ratio_of_median_products.
inline RatioEstimate ratio_of_medians(const std::vector<double>& numerator, const std::vector<double>& denominator,
                                      int resamples = 2000, std::uint64_t seed = 0x9e3779b97f4a7c15ull) {
  return ratio_of_median_products({&numerator}, {&denominator}, resamples, seed);
}

}  // namespace graphbench::stats
