
#include "graphbench/core/stats/block_bootstrap.h"
#include "graphbench/core/stats/random.h"
#include "graphbench/core/stats/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
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

namespace {

double log_of_positive(double v) {
  if (!(std::isfinite(v) && v > 0.0)) throw std::invalid_argument("across_runs_interval: expected positive finite numbers");
  return std::log(v);
}

}  // namespace

Interval across_runs_interval(const std::vector<double>& values, const std::vector<Interval>& within, double point) {
  if (values.empty()) throw std::invalid_argument("across_runs_interval: no repetition");
  if (values.size() != within.size()) throw std::invalid_argument("across_runs_interval: one interval per value expected");
  const double n = static_cast<double>(values.size());
  double log_low = 0.0, log_high = 0.0, mean = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    mean += log_of_positive(values[i]) / n;
    log_low += log_of_positive(within[i].low) / n;
    log_high += log_of_positive(within[i].high) / n;
  }
  double low = std::min(log_low, log_of_positive(point));
  double high = std::max(log_high, std::log(point));
  if (values.size() >= 2) {
    double sum_squares = 0.0;
    for (double v : values) sum_squares += (std::log(v) - mean) * (std::log(v) - mean);
    const double sd = std::sqrt(sum_squares / (n - 1.0));
    const double half = student_t_quantile(0.975, n - 1.0) * sd / std::sqrt(n);
    low = std::min(low, mean - half);
    high = std::max(high, mean + half);
  }
  return {std::exp(low), std::exp(high)};
}

namespace {

struct Moments {
  double mean = 0.0, variance = 0.0;
};

Moments log_moments(const std::vector<double>& values) {
  Moments m;
  for (double v : values) {
    if (!(v > 0.0) || !std::isfinite(v)) throw std::invalid_argument("variance_components: expected positive values");
    m.mean += std::log(v) / static_cast<double>(values.size());
  }
  for (double v : values) m.variance += (std::log(v) - m.mean) * (std::log(v) - m.mean);
  m.variance /= static_cast<double>(values.size() - 1);
  return m;
}

}  // namespace

VarianceComponents variance_components(const std::vector<std::vector<double>>& processes) {
  if (processes.size() < 2) throw std::invalid_argument("variance_components: expected at least two processes");
  VarianceComponents c;
  c.processes = static_cast<int>(processes.size());
  const double n = static_cast<double>(processes.size());
  double s1 = 0.0, rounds = 0.0;
  std::vector<double> means;
  for (const std::vector<double>& p : processes) {
    if (p.size() < 2) throw std::invalid_argument("variance_components: expected at least two rounds per process");
    const Moments m = log_moments(p);
    s1 += m.variance / n;
    rounds += static_cast<double>(p.size()) / n;
    means.push_back(m.mean);
  }
  double mean_of_means = 0.0, s2 = 0.0;
  for (double m : means) mean_of_means += m / n;
  for (double m : means) s2 += (m - mean_of_means) * (m - mean_of_means) / (n - 1.0);
  c.rounds = rounds;
  c.round_sd = std::sqrt(s1);
  c.process_sd = std::sqrt(std::max(0.0, s2 - s1 / rounds));
  return c;
}

double optimal_rounds(const VarianceComponents& c, double c2, double c1) {
  if (!(c.process_sd > 0.0)) return std::numeric_limits<double>::infinity();
  return std::sqrt((c2 / c1) * (c.round_sd * c.round_sd) / (c.process_sd * c.process_sd));
}

}  // namespace graphbench::stats
