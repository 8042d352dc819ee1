#include "graphbench/core/stats/variance_components.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace graphbench::stats {

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
