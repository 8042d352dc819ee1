// Pure statistics over samples (microseconds per step). No LibTorch, no I/O.
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

}  // namespace graphbench::stats
