// The chi-square distribution, for the interval of a standard deviation from a few runs: (n - 1)
// s^2 / sigma^2 follows chi-square with n - 1 degrees of freedom.
#pragma once

#include "graphbench/core/stats/statistics.h"

namespace graphbench::stats {

// The p-quantile of chi-square(dof), p in (0, 1).
double chi_square_quantile(double p, double dof);
// The 95% interval of a standard deviation `sd` measured from `n` >= 2 values.
Interval sd_interval(double sd, int n);

}  // namespace graphbench::stats
