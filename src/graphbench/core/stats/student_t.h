// Student's t distribution (cumulative distribution and quantile), for the calibrated gate's test
// of a run-to-run difference against a spread estimated from a few runs (core/compare/calibration.h).
#pragma once

namespace graphbench::stats {

// P(T <= t) for T ~ Student's t with `dof` > 0 degrees of freedom (NaN for dof <= 0 or NaN t).
double student_t_cdf(double t, double dof);

// The t with P(T <= t) = p, for p in (0, 1) (NaN otherwise), to ~1e-10.
double student_t_quantile(double p, double dof);

}  // namespace graphbench::stats
