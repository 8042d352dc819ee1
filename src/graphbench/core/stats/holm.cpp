#include "graphbench/core/stats/holm.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace graphbench::stats {

std::vector<HolmDecision> holm(const std::vector<double>& p_values, double alpha) {
  std::vector<HolmDecision> out(p_values.size(), HolmDecision{false, std::numeric_limits<double>::quiet_NaN()});
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < p_values.size(); ++i) {
    if (!std::isnan(p_values[i])) order.push_back(i);
  }
  // Ties keep the input's order, so the decisions do not depend on the sort's implementation.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
  const std::size_t m = order.size();
  bool stopped = false;
  for (std::size_t k = 0; k < m; ++k) {
    HolmDecision& d = out[order[k]];
    d.level = alpha / static_cast<double>(m - k);
    stopped = stopped || !(p_values[order[k]] <= d.level);
    d.rejected = !stopped;
  }
  return out;
}

}  // namespace graphbench::stats
