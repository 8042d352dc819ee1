#include "graphbench/core/stats/hierarchical_bootstrap.h"

#include "graphbench/core/stats/block_bootstrap.h"
#include "graphbench/core/stats/random.h"
#include "graphbench/core/stats/statistics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace graphbench::stats {

namespace {

constexpr double kZ975 = 1.959963984540054;

double pooled_median(std::vector<double>& values) {
  const std::size_t n = values.size();
  auto mid = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(values.begin(), mid, values.end());
  if (n % 2 == 1) return *mid;
  const double upper = *mid;
  const double lower = *std::max_element(values.begin(), mid);
  return (lower + upper) / 2.0;
}

// Appends the rounds of one process, resampled in circular blocks of `block` rounds.
void resample_rounds(const ProcessSamples& p, std::size_t block, SplitMix64& random, std::vector<double>& numerators,
                     std::vector<double>& denominators) {
  const std::size_t n = p.numerator->size();
  for (std::size_t taken = 0; taken < n;) {
    const std::size_t start = random.below(n);
    for (std::size_t k = 0; k < block && taken < n; ++k, ++taken) {
      const std::size_t round = (start + k) % n;
      numerators.push_back((*p.numerator)[round]);
      if (p.denominator != nullptr) denominators.push_back((*p.denominator)[round % p.denominator->size()]);
    }
  }
}

}  // namespace

double small_sample_expansion(int processes) {
  if (processes < 2) throw std::invalid_argument("small_sample_expansion: expected at least two processes");
  const double n = static_cast<double>(processes);
  return std::sqrt(n / (n - 1.0)) * student_t_quantile(0.975, n - 1.0) / kZ975;
}

Interval hierarchical_interval(const std::vector<ProcessSamples>& processes, double point, int resamples,
                               std::uint64_t seed) {
  if (processes.size() < 2) throw std::invalid_argument("hierarchical_interval: expected at least two processes");
  if (resamples < 1) throw std::invalid_argument("hierarchical_interval: expected resamples >= 1");
  std::vector<std::size_t> blocks;
  for (const ProcessSamples& p : processes) {
    if (p.numerator == nullptr || p.numerator->empty() || (p.denominator != nullptr && p.denominator->empty())) {
      throw std::invalid_argument("hierarchical_interval: a process without samples");
    }
    std::size_t b = block_length(*p.numerator);
    if (p.denominator != nullptr) b = std::max(b, block_length(*p.denominator));
    blocks.push_back(b);
  }
  SplitMix64 random(seed);
  std::vector<double> logs;
  std::vector<double> numerators, denominators;
  for (int r = 0; r < resamples; ++r) {
    numerators.clear();
    denominators.clear();
    for (std::size_t k = 0; k < processes.size(); ++k) {
      const std::size_t drawn = random.below(processes.size());
      resample_rounds(processes[drawn], blocks[drawn], random, numerators, denominators);
    }
    double value = pooled_median(numerators);
    if (!denominators.empty()) value /= pooled_median(denominators);
    if (value > 0.0 && std::isfinite(value)) logs.push_back(std::log(value));
  }
  if (logs.empty() || !(point > 0.0)) return {point, point};
  std::sort(logs.begin(), logs.end());
  const auto at = [&](double q) { return logs[static_cast<std::size_t>(q * static_cast<double>(logs.size() - 1) + 0.5)]; };
  const double centre = std::log(point);
  const double k = small_sample_expansion(static_cast<int>(processes.size()));
  const double low = centre - k * std::max(0.0, centre - at(0.025));
  const double high = centre + k * std::max(0.0, at(0.975) - centre);
  return {std::exp(low), std::exp(high)};
}

}  // namespace graphbench::stats
