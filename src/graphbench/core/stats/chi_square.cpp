#include "graphbench/core/stats/chi_square.h"

#include <cmath>
#include <stdexcept>

namespace graphbench::stats {

namespace {

// The regularized lower incomplete gamma function P(a, x): its series below a + 1, else one minus
// the continued fraction of the upper one (Numerical Recipes' gser and gcf, Lentz's method).
double lower_gamma_regularized(double a, double x) {
  if (x <= 0.0) return 0.0;
  const double log_prefix = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1.0) {
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 1000 && std::fabs(term) > std::fabs(sum) * 1e-15; ++n) {
      term *= x / (a + n);
      sum += term;
    }
    return sum * std::exp(log_prefix);
  }
  constexpr double kTiny = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / kTiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 1000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < 1e-15) break;
  }
  return 1.0 - std::exp(log_prefix) * h;
}

// P(X <= x) for X ~ chi-square(dof); dof > 0, x >= 0.
double chi_square_cdf(double x, double dof) {
  if (!(dof > 0.0)) throw std::invalid_argument("chi_square_cdf: expected dof > 0");
  return lower_gamma_regularized(dof / 2.0, x / 2.0);
}

}  // namespace

double chi_square_quantile(double p, double dof) {
  if (!(p > 0.0 && p < 1.0)) throw std::invalid_argument("chi_square_quantile: expected p in (0, 1)");
  double low = 0.0, high = dof + 10.0;
  while (chi_square_cdf(high, dof) < p) high *= 2.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = (low + high) / 2.0;
    (chi_square_cdf(mid, dof) < p ? low : high) = mid;
  }
  return (low + high) / 2.0;
}

Interval sd_interval(double sd, int n) {
  if (n < 2) throw std::invalid_argument("sd_interval: expected at least two values");
  const double dof = n - 1.0;
  return {sd * std::sqrt(dof / chi_square_quantile(0.975, dof)), sd * std::sqrt(dof / chi_square_quantile(0.025, dof))};
}

}  // namespace graphbench::stats
