// The interval of a quantity measured once per repetition (`--repetitions N`), on a log scale: the
// smallest that holds the point estimate, the t-interval across the repetitions
// (exp(mean(log v) +- t(0.975, N - 1) sd(log v) / sqrt(N))) and their own intervals pooled
// (exp(mean(log low_i)), exp(mean(log high_i))). See docs/measuring.md (repetitions).
#pragma once

#include "graphbench/core/stats/statistics.h"

#include <vector>

namespace graphbench::stats {

// `values`: one per repetition, positive; `within`: each repetition's own interval (positive
// bounds), in the same order; `point`: the merged estimate, positive. Throws std::invalid_argument
// when `values` is empty, the sizes differ, or a number is not positive and finite.
Interval across_runs_interval(const std::vector<double>& values, const std::vector<Interval>& within, double point);

}  // namespace graphbench::stats
