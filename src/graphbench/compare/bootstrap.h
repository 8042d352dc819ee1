// Bootstrap interval of a ratio of products of medians, for the speedup metric of the compare
// gate: (median(a) * median(b)) / (median(c) * median(d)) with every sample set resampled.
#pragma once

#include "graphbench/stats/statistics.h"

#include <cstdint>
#include <vector>

namespace graphbench {

// prod(median(numerators)) / prod(median(denominators)) with a 95% percentile bootstrap interval
// (widened to contain the point estimate), each set resampled independently. With one set on
// each side it draws exactly as stats::ratio_of_medians and gives the same numbers.
// Throws std::invalid_argument when a set is empty or resamples < 1.
stats::RatioEstimate ratio_of_median_products(
    const std::vector<const std::vector<double>*>& numerators,
    const std::vector<const std::vector<double>*>& denominators, int resamples = 2000,
    std::uint64_t seed = 0x9e3779b97f4a7c15ull);

}  // namespace graphbench
