#include "graphbench/core/report/against_eager_text.h"

#include "graphbench/core/report/json_or_null.h"
#include "graphbench/core/report/markdown_text.h"
#include "graphbench/core/stats/break_even.h"

#include <fmt/format.h>

namespace graphbench {

bool add_against_eager(const AgainstEager& a, const char* step_key, nlohmann::json& out) {
  out["ok"] = a.ok;
  if (!a.ok) {
    out["reason"] = a.reason;
    return false;
  }
  out["eager_us"] = a.eager_us;
  out[step_key] = a.step_us;
  out["speedup"] = a.speedup;
  out["speedup_ci95"] = interval_or_null(a.speedup_ci95);
  out["capture_ms"] = json_or_null(a.capture_ms);
  out["warmup_ms"] = json_or_null(a.warmup_ms);
  out["pool_bytes"] = json_or_null(a.pool_bytes);
  out["break_even_replays"] = json_or_null(a.break_even_replays);
  out["break_even_s"] = json_or_null(a.break_even_s);
  return true;
}

std::string break_even_cell(const AgainstEager& a) {
  if (!a.break_even_replays) return "never";
  const std::int64_t replays = *a.break_even_replays;
  std::string range;
  if (a.speedup_ci95 && a.capture_ms) {
    if (const auto r = stats::break_even_range(*a.capture_ms, a.warmup_ms.value_or(0.0), a.eager_us,
                                               a.speedup_ci95->low, a.speedup_ci95->high)) {
      if (!r->most) {
        range = fmt::format(" [{}-?]", r->fewest);
      } else if (r->fewest != replays || *r->most != replays) {
        range = fmt::format(" [{}-{}]", r->fewest, *r->most);
      }
    }
  }
  return fmt::format("{}{} ({} s)", replays, range, a.break_even_s ? human_number(*a.break_even_s) : "?");
}

}  // namespace graphbench
