// Bootstrap of a ratio of products of medians (see bootstrap.h).
#include "graphbench/core/stats/bootstrap.h"

#include "graphbench/core/stats/random.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace graphbench::stats {
namespace {

double product_of_medians(const std::vector<const std::vector<double>*>& sets,
                          std::vector<double>& scratch) {
  double product = 1.0;
  for (const auto* set : sets) {
    scratch = *set;
    product *= median_in_place(scratch);
  }
  return product;
}

double resampled_product(const std::vector<const std::vector<double>*>& sets, SplitMix64& rng,
                         std::vector<double>& scratch) {
  double product = 1.0;
  for (const auto* set : sets) {
    scratch.resize(set->size());
    for (double& x : scratch) x = (*set)[rng.below(set->size())];
    product *= median_in_place(scratch);
  }
  return product;
}

void check_sets(const std::vector<const std::vector<double>*>& sets, const char* side) {
  if (sets.empty()) throw std::invalid_argument(std::string("no ") + side + " sample sets");
  for (const auto* set : sets) {
    if (set == nullptr || set->empty()) {
      throw std::invalid_argument(std::string("an empty ") + side + " sample set");
    }
  }
}

}  // namespace

RatioEstimate ratio_of_median_products(
    const std::vector<const std::vector<double>*>& numerators,
    const std::vector<const std::vector<double>*>& denominators, int resamples,
    std::uint64_t seed) {
  check_sets(numerators, "numerator");
  check_sets(denominators, "denominator");
  if (resamples < 1) {
    throw std::invalid_argument("resamples must be >= 1, got " + std::to_string(resamples));
  }
  std::vector<double> scratch;
  RatioEstimate estimate;
  const double top = product_of_medians(numerators, scratch);
  estimate.ratio = top / product_of_medians(denominators, scratch);

  SplitMix64 rng(seed);
  std::vector<double> ratios(static_cast<std::size_t>(resamples));
  for (double& r : ratios) {
    const double t = resampled_product(numerators, rng, scratch);
    r = t / resampled_product(denominators, rng, scratch);
  }
  estimate.ci95.low = std::min(percentile(ratios, 2.5), estimate.ratio);
  estimate.ci95.high = std::max(percentile(ratios, 97.5), estimate.ratio);
  return estimate;
}

}  // namespace graphbench::stats
