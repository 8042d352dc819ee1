// A graph variant measured against eager at one point of a case: a sweep's size
// (sweep_verdict.h) or a capture scope (scope_verdict.h). What the two share: the step times, the
// speedup and its interval, what capturing cost and when it pays back, read from the two records
// in one place.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/core/stats/statistics.h"

#include <cstdint>
#include <optional>
#include <string>

namespace graphbench {

struct AgainstEager {
  bool ok = false;      // the variant and eager both measured at this point
  std::string reason;   // why not, when !ok
  double eager_us = 0.0;
  double step_us = 0.0;  // the variant's step
  double speedup = 0.0;  // the record's speedup over eager (else eager_us / step_us)
  std::optional<stats::Interval> speedup_ci95;
  std::optional<double> capture_ms;
  std::optional<double> warmup_ms;
  std::optional<std::int64_t> pool_bytes;  // the point's graph memory (each verdict says which)
  std::optional<std::int64_t> break_even_replays;
  std::optional<double> break_even_s;
};

// Sets `out` ok with the figures of `variant` against `eager`, both measured (stats present).
void measure_against_eager(AgainstEager& out, const ResultRecord& variant, const ResultRecord& eager);

}  // namespace graphbench
