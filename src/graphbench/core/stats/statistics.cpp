// Percentiles, medians and summaries of samples (see statistics.h).
#include "graphbench/core/stats/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace graphbench::stats {
namespace {

void require_non_empty(const std::vector<double>& values, const char* what) {
  if (values.empty()) {
    throw std::invalid_argument(std::string(what) + ": needs at least one sample, got none");
  }
}

// a + (b - a) t, computed from the nearer end as numpy does, so results match it to the last bit.
double lerp(double a, double b, double t) {
  const double diff = b - a;
  return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

// Percentile of already sorted values (numpy's default "linear" method).
double sorted_percentile(const std::vector<double>& sorted, double p) {
  const double rank = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(rank));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return lerp(sorted[below], sorted[above], rank - static_cast<double>(below));
}

}  // namespace

double median_in_place(std::vector<double>& values) {
  const std::size_t n = values.size();
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(values.begin(), mid, values.end());
  const double upper = *mid;
  if (n % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), mid);
  return lerp(lower, upper, 0.5);
}

double percentile(std::vector<double> values, double p) {
  require_non_empty(values, "percentile");
  if (!(p >= 0.0 && p <= 100.0)) {
    throw std::invalid_argument("percentile: p must be in [0, 100], got " + std::to_string(p));
  }
  std::sort(values.begin(), values.end());
  return sorted_percentile(values, p);
}

Summary summarize(const std::vector<double>& values) {
  require_non_empty(values, "summarize");
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  Summary s;
  s.count = sorted.size();
  s.median = sorted_percentile(sorted, 50.0);
  s.q1 = sorted_percentile(sorted, 25.0);
  s.q3 = sorted_percentile(sorted, 75.0);
  s.iqr = s.q3 - s.q1;
  s.min = sorted.front();
  s.max = sorted.back();
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(s.count);
  if (s.count > 1) {
    double squares = 0.0;
    for (double x : sorted) squares += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(squares / static_cast<double>(s.count - 1));
  }
  s.cv = s.mean != 0.0 ? s.stddev / s.mean : 0.0;
  return s;
}

}  // namespace graphbench::stats
