// The interval of a quantity measured once per repetition of a run (`graphbench run
// --repetitions N`, each repetition a process of its own). Within-run intervals cannot see what
// changes from one process to the next (a GPU's medians move by a few percent between runs), so
// the repetitions' own values give the spread, on a log scale (times and ratios are positive and
// their differences relative):
//   across: exp(mean(log v) +- t(0.975, N - 1) sd(log v) / sqrt(N)), Student's t with N - 1
//           degrees of freedom (N >= 2);
//   within: the repetitions' own 95% intervals pooled: exp(mean(log low_i)), exp(mean(log high_i));
// and the interval returned is the smallest that contains both and the point estimate. Identical
// repetitions give the within-run interval; repetitions that differ more than their own intervals
// say give the t-interval. See docs/measuring.md (repetitions).
#pragma once

#include "graphbench/core/stats/statistics.h"

#include <vector>

namespace graphbench::stats {

// `values`: one per repetition, positive; `within`: each repetition's own interval (positive
// bounds), in the same order; `point`: the merged estimate, positive. Throws std::invalid_argument
// when `values` is empty, the sizes differ, or a number is not positive and finite.
Interval across_runs_interval(const std::vector<double>& values, const std::vector<Interval>& within, double point);

}  // namespace graphbench::stats
