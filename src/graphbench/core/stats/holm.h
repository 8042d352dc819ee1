// Holm's step-down procedure (Holm 1979): which of m hypotheses to reject so that the chance of
// rejecting any true one stays at most alpha, under any dependence between the tests.
#pragma once

#include <vector>

namespace graphbench::stats {

struct HolmDecision {
  bool rejected = false;
  double level = 0.0;  // the level its p-value was held to: alpha / (m - rank), rank from 0
};

// One decision per p-value, in the input's order. Sorted ascending, the k-th p-value (from 0) is
// rejected while every p-value up to it is <= alpha / (m - k); the first that is not stops the
// procedure. NaN p-values take no part (not rejected, level NaN) and do not count in m.
std::vector<HolmDecision> holm(const std::vector<double>& p_values, double alpha);

}  // namespace graphbench::stats
