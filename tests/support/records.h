// A result record of a benchmark case, its identity filled in, for tests of writers and readers.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/core/stats/statistics.h"

#include <string>
#include <vector>

namespace graphbench::testing {

inline ResultRecord benchmark_record(const std::string& case_name, const std::string& variant,
                                     const std::string& device = "cpu") {
  ResultRecord r;
  r.case_name = case_name;
  r.workload = "gelu";
  r.variant = variant;
  r.kind = RecordKind::kBenchmark;
  r.mode = Mode::kInference;
  r.dtype = "float32";
  r.device = device;
  return r;
}

// `count` samples spread evenly within +-`spread` (relative) of `median`, in a fixed shuffled order.
inline std::vector<double> samples_around(double median, int count, double spread = 0.01) {
  std::vector<double> out;
  for (int i = 0; i < count; ++i) {
    out.push_back(median * (1.0 + spread * ((i * 7 % count) / double(count - 1) * 2.0 - 1.0)));
  }
  return out;
}

// A record merged from processes with these medians, 20 samples each (core/record/merge_repetitions.h),
// with each process's speedup where given.
inline ResultRecord merged_record(const std::string& case_name, const std::string& variant,
                                  const std::vector<double>& medians, const std::vector<double>& speedups = {}) {
  ResultRecord r = benchmark_record(case_name, variant, "cuda");
  Repetitions info;
  info.requested = info.succeeded = static_cast<int>(medians.size());
  for (std::size_t k = 0; k < medians.size(); ++k) {
    const std::vector<double> own = samples_around(medians[k], 20);
    r.samples_us.insert(r.samples_us.end(), own.begin(), own.end());
    RepetitionFigures f;
    f.status = "ok";
    f.samples = 20;
    f.median_us = stats::percentile(own, 50.0);
    if (k < speedups.size()) f.speedup_vs_eager = speedups[k];
    info.runs.push_back(f);
  }
  r.stats = stats::summarize(r.samples_us);
  r.repetitions = info;
  return r;
}

// A run of the ci suite on one H200 holding `records`.
inline RunReport ci_report(std::vector<ResultRecord> records) {
  RunReport report;
  report.environment.suite = "ci";
  report.environment.device = "cuda";
  report.environment.gpu_name = "NVIDIA H200";
  report.records = std::move(records);
  return report;
}

}  // namespace graphbench::testing
