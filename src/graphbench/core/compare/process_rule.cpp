// The process-level rule (see verdict_rule.h).
#include "graphbench/core/compare/verdict_rule.h"

#include <cmath>

namespace graphbench::compare_detail {

std::vector<double> process_values(const ResultRecord& record, CompareOptions::Metric metric) {
  std::vector<double> values;
  if (!record.repetitions) return values;
  for (const RepetitionFigures& f : record.repetitions->runs) {
    if (f.status != "ok") continue;
    if (metric == CompareOptions::Metric::kTime) {
      if (f.median_us && *f.median_us > 0.0 && std::isfinite(*f.median_us)) values.push_back(*f.median_us);
    } else if (f.speedup_vs_eager && *f.speedup_vs_eager > 0.0 && std::isfinite(*f.speedup_vs_eager)) {
      values.push_back(1.0 / *f.speedup_vs_eager);
    }
  }
  return values;
}

namespace {

struct LogMoments {
  double mean = 0.0, sum_squares = 0.0;
};

LogMoments log_moments(const std::vector<double>& values) {
  LogMoments m;
  for (double v : values) m.mean += std::log(v) / static_cast<double>(values.size());
  for (double v : values) m.sum_squares += (std::log(v) - m.mean) * (std::log(v) - m.mean);
  return m;
}

}  // namespace

void measure_processes(Comparison& row, const std::vector<double>& baseline, const std::vector<double>& current) {
  const LogMoments b = log_moments(baseline);
  const LogMoments c = log_moments(current);
  const double nb = static_cast<double>(baseline.size());
  const double nc = static_cast<double>(current.size());
  row.baseline_processes = static_cast<int>(baseline.size());
  row.current_processes = static_cast<int>(current.size());
  row.dof = nb + nc - 2.0;
  row.noise = std::sqrt((b.sum_squares + c.sum_squares) / row.dof);
  row.difference_sd = row.noise * std::sqrt(1.0 / nb + 1.0 / nc);
  row.aa_noise = std::numeric_limits<double>::quiet_NaN();
  test_log_ratio(row, std::exp(c.mean - b.mean));
}

}  // namespace graphbench::compare_detail
