#include "graphbench/core/report/against_eager_json.h"

#include "graphbench/core/report/json_or_null.h"

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
  out["speedup_ci95"] =
      a.speedup_ci95 ? nlohmann::json::array({a.speedup_ci95->low, a.speedup_ci95->high}) : nlohmann::json(nullptr);
  out["capture_ms"] = json_or_null(a.capture_ms);
  out["warmup_ms"] = json_or_null(a.warmup_ms);
  out["pool_bytes"] = json_or_null(a.pool_bytes);
  out["break_even_replays"] = json_or_null(a.break_even_replays);
  out["break_even_s"] = json_or_null(a.break_even_s);
  return true;
}

}  // namespace graphbench
