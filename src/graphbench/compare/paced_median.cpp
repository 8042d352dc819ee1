#include "graphbench/compare/paced_median.h"

#include "graphbench/stats/statistics.h"

#include <limits>

namespace graphbench {

namespace {

bool all_positive(const std::vector<double>& values) {
  for (double v : values) {
    if (!(v > 0.0)) return false;
  }
  return true;
}

}  // namespace

bool has_host_pace(const ResultRecord& record) {
  return !record.samples_us.empty() && record.host_pace_us.size() == record.samples_us.size() &&
         all_positive(record.host_pace_us);
}

double paced_median(const std::vector<double>& samples, const std::vector<double>& paces) {
  if (samples.empty() || samples.size() != paces.size() || !all_positive(paces)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  std::vector<double> ratios;
  ratios.reserve(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) ratios.push_back(samples[i] / paces[i]);
  return stats::percentile(ratios, 50.0);
}

}  // namespace graphbench
