// The distributions and the multiple-test correction of statistics.h: Student's t from the
// regularised incomplete beta function, evaluated by its continued fraction (modified Lentz's
// method; Press et al., Numerical Recipes, 3rd ed., 6.4), chi-square, and Holm's procedure.
#include "graphbench/core/stats/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace graphbench::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The continued fraction of I_x(a, b), converging for x < (a + 1) / (a + b + 2).
double beta_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEpsilon = 1e-15;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::abs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  // One half-step of the continued fraction with coefficient `aa`: the factor it multiplies h by.
  const auto half_step = [&](double aa) {
    d = 1.0 + aa * d;
    if (std::abs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    return d * c;
  };
  for (int m = 1; m <= 500; ++m) {
    const double m2 = 2.0 * m;
    h *= half_step(m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)));
    const double step = half_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)));
    h *= step;
    if (std::abs(step - 1.0) < kEpsilon) break;
  }
  return h;
}

// The regularised incomplete beta function I_x(a, b) for x in [0, 1].
double incomplete_beta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_fraction(a, b, x) / a;
  return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

}  // namespace

double student_t_cdf(double t, double dof) {
  if (!(dof > 0.0) || std::isnan(t)) return kNaN;
  if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
  // P(|T| > |t|) = I_{dof / (dof + t^2)}(dof / 2, 1 / 2).
  const double tail = 0.5 * incomplete_beta(dof / 2.0, 0.5, dof / (dof + t * t));
  return t > 0 ? 1.0 - tail : tail;
}

double student_t_quantile(double p, double dof) {
  if (!(p > 0.0 && p < 1.0) || !(dof > 0.0)) return kNaN;
  if (p < 0.5) return -student_t_quantile(1.0 - p, dof);
  // Bisection on [0, hi]: the cdf is monotone; hi doubles until it is past p.
  double lo = 0.0;
  double hi = 1.0;
  while (student_t_cdf(hi, dof) < p && hi < 1e12) hi *= 2.0;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * std::max(1.0, hi); ++i) {
    const double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, dof) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

std::vector<HolmDecision> holm(const std::vector<double>& p_values, double alpha) {
  std::vector<HolmDecision> out(p_values.size(), HolmDecision{false, std::numeric_limits<double>::quiet_NaN()});
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < p_values.size(); ++i) {
    if (!std::isnan(p_values[i])) order.push_back(i);
  }
  // Ties keep the input's order, so the decisions do not depend on the sort's implementation.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
  const std::size_t m = order.size();
  bool stopped = false;
  for (std::size_t k = 0; k < m; ++k) {
    HolmDecision& d = out[order[k]];
    d.level = alpha / static_cast<double>(m - k);
    stopped = stopped || !(p_values[order[k]] <= d.level);
    d.rejected = !stopped;
  }
  return out;
}

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
