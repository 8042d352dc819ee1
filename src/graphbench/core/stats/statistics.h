// Pure statistics over samples (microseconds per step), and the distributions and multiple-test
// correction the few-runs rules of the compare gate use. No LibTorch, no I/O.
#pragma once

#include <vector>

namespace graphbench::stats {

struct Summary {
  std::size_t count = 0;
  double median = 0.0;
  double q1 = 0.0;  // 25th percentile (linear interpolation, as numpy's default)
  double q3 = 0.0;  // 75th percentile
  double iqr = 0.0;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
  double stddev = 0.0;  // sample standard deviation (n - 1)
  double cv = 0.0;      // stddev / mean
};

struct Interval {
  double low = 0.0;
  double high = 0.0;
};

// Percentile p in [0, 100] with linear interpolation between order statistics.
double percentile(std::vector<double> values, double p);

// Median of a non-empty sample, reordering it (nth_element): linear interpolation, as percentile.
double median_in_place(std::vector<double>& values);

// Summary of a non-empty sample; throws std::invalid_argument on an empty one.
Summary summarize(const std::vector<double>& values);

// Student's t: P(T <= t) for `dof` > 0 degrees of freedom (NaN for dof <= 0 or NaN t), and the t
// with P(T <= t) = p for p in (0, 1) (NaN otherwise), to ~1e-10.
double student_t_cdf(double t, double dof);
double student_t_quantile(double p, double dof);

// The p-quantile of chi-square(dof), p in (0, 1); and the 95% interval of a standard deviation `sd`
// measured from `n` >= 2 values ((n - 1) s^2 / sigma^2 follows chi-square with n - 1 degrees of freedom).
double chi_square_quantile(double p, double dof);
Interval sd_interval(double sd, int n);

// Holm's step-down procedure (Holm 1979): which of m hypotheses to reject so that the chance of
// rejecting any true one stays at most alpha, under any dependence between the tests.
struct HolmDecision {
  bool rejected = false;
  double level = 0.0;  // the level its p-value was held to: alpha / (m - rank), rank from 0
};
// One decision per p-value, in the input's order: sorted ascending, the k-th (from 0) is rejected
// while every p-value up to it is <= alpha / (m - k). NaN p-values take no part (level NaN).
std::vector<HolmDecision> holm(const std::vector<double>& p_values, double alpha);

}  // namespace graphbench::stats
