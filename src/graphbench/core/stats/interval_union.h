// The length of the union of time intervals: how long a device was busy with kernels, copies and
// memsets that may overlap (kernels on several streams, a graph's parallel branches). Their summed
// durations count overlapping time twice: a GRU tagger's graph summed 4654 us of kernels in a
// 2405 us step. The sum over the union is the concurrency (1: nothing overlapped).
#pragma once

#include <utility>
#include <vector>

namespace graphbench::stats {

// (start, end) pairs in any order; an interval with end <= start adds nothing.
double union_length(std::vector<std::pair<double, double>> intervals);

}  // namespace graphbench::stats
