#include "graphbench/engine/exec/counters.h"

namespace graphbench {

std::map<std::string, std::int64_t> Counters::to_map() const {
  std::map<std::string, std::int64_t> out;
  auto put = [&out](const char* name, std::int64_t value) {
    if (value != 0) out[name] = value;
  };
  put("compiles", compiles);
  put("compile_cache_hits", compile_cache_hits);
  put("eager_runs", eager_runs);
  put("static_runs", static_runs);
  put("bindings", bindings);
  put("captures", captures);
  put("capture_failures", capture_failures);
  put("replays", replays);
  put("graph_cache_hits", graph_cache_hits);
  put("graph_cache_entries", graph_cache_entries);
  put("eager_fallback_runs", eager_fallback_runs);
  put("warmup_runs", warmup_runs);
  put("feed_copies", feed_copies);
  put("feed_copies_skipped", feed_copies_skipped);
  put("feed_values_ignored", feed_values_ignored);
  put("crossing_copies", crossing_copies);
  put("eager_segment_runs", eager_segment_runs);
  return out;
}

}  // namespace graphbench
