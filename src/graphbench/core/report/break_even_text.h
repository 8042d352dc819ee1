// The break-even of a graph in a table cell, at the precision its speedup's interval allows: the
// replays, their range over the speedup's 95% interval where that range is not one number, and
// the seconds they take: "1234 [1100-1400] (0.05 s)", "1234 [1100-?] (0.05 s)" where the interval
// reaches 1 (the graph may save nothing). One cell for the sweep and scope tables.
#pragma once

#include "graphbench/core/stats/statistics.h"

#include <cstdint>
#include <optional>
#include <string>

namespace graphbench {

// `fallback` where there is no break-even (the graph saves nothing).
std::string break_even_cell(const std::optional<std::int64_t>& replays, const std::optional<double>& seconds,
                            const std::optional<double>& capture_ms, const std::optional<double>& warmup_ms,
                            double eager_us, const std::optional<stats::Interval>& speedup_ci95,
                            const std::string& fallback);

}  // namespace graphbench
