#include "graphbench/core/report/break_even_text.h"

#include "graphbench/core/report/markdown_text.h"
#include "graphbench/core/stats/break_even.h"

#include <fmt/format.h>

namespace graphbench {

std::string break_even_cell(const std::optional<std::int64_t>& replays, const std::optional<double>& seconds,
                            const std::optional<double>& capture_ms, const std::optional<double>& warmup_ms,
                            double eager_us, const std::optional<stats::Interval>& speedup_ci95,
                            const std::string& fallback) {
  if (!replays) return fallback;
  std::string range;
  if (speedup_ci95 && capture_ms) {
    if (const auto r = stats::break_even_range(*capture_ms, warmup_ms.value_or(0.0), eager_us, speedup_ci95->low,
                                               speedup_ci95->high)) {
      if (!r->most) {
        range = fmt::format(" [{}-?]", r->fewest);
      } else if (r->fewest != *replays || *r->most != *replays) {
        range = fmt::format(" [{}-{}]", r->fewest, *r->most);
      }
    }
  }
  return fmt::format("{}{} ({} s)", *replays, range, seconds ? human_number(*seconds) : "?");
}

}  // namespace graphbench
