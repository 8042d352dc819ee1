// The length of a union of time intervals: how long a device was busy with kernels, copies and
// memsets that may overlap (summed durations count overlapping time twice).
#pragma once

#include <utility>
#include <vector>

namespace graphbench::stats {

// (start, end) pairs in any order; an interval with end <= start adds nothing.
double union_length(std::vector<std::pair<double, double>> intervals);

}  // namespace graphbench::stats
