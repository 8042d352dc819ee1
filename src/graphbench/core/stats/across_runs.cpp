#include "graphbench/core/stats/across_runs.h"

#include "graphbench/core/stats/student_t.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace graphbench::stats {

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

}  // namespace graphbench::stats
