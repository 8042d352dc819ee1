// The chi-square distribution, for the interval of a standard deviation measured from a few runs:
// with n runs, (n - 1) s^2 / sigma^2 follows chi-square with n - 1 degrees of freedom, so sigma
// lies in [s sqrt((n - 1) / q(0.975)), s sqrt((n - 1) / q(0.025))] with 95% confidence. Three
// runs say little: s = 5% gives [2.6%, 31%].
#pragma once

#include "graphbench/core/stats/statistics.h"

namespace graphbench::stats {

// The p-quantile of chi-square(dof), p in (0, 1).
double chi_square_quantile(double p, double dof);
// The 95% interval of a standard deviation `sd` measured from `n` >= 2 values.
Interval sd_interval(double sd, int n);

}  // namespace graphbench::stats
