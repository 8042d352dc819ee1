#include "graphbench/core/stats/interval_union.h"

#include <algorithm>

namespace graphbench::stats {

double union_length(std::vector<std::pair<double, double>> intervals) {
  std::sort(intervals.begin(), intervals.end());
  double total = 0.0;
  bool open = false;
  double start = 0.0, end = 0.0;
  for (const auto& [s, e] : intervals) {
    if (!(e > s)) continue;
    if (open && s <= end) {
      end = std::max(end, e);
      continue;
    }
    if (open) total += end - start;
    start = s;
    end = e;
    open = true;
  }
  if (open) total += end - start;
  return total;
}

}  // namespace graphbench::stats
