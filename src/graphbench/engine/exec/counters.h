// What the engine did, counted: compiles, captures, replays, cache hits, copies. Reported with
// every result so that "captured once, replayed N times" is visible, not assumed.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace graphbench {

struct Counters {
  std::int64_t compiles = 0;            // programs compiled (compile cache misses)
  std::int64_t compile_cache_hits = 0;
  std::int64_t eager_runs = 0;
  std::int64_t static_runs = 0;
  std::int64_t bindings = 0;            // fixed-slot bindings made (one per graph key)
  std::int64_t captures = 0;
  std::int64_t capture_failures = 0;
  std::int64_t replays = 0;
  std::int64_t graph_cache_hits = 0;    // runs that found their graph already captured
  std::int64_t graph_cache_entries = 0;
  std::int64_t eager_fallback_runs = 0; // runs done eagerly after a failed capture
  std::int64_t warmup_runs = 0;
  std::int64_t feed_copies = 0;         // tensors copied from a feed into fixed buffers
  std::int64_t feed_copies_skipped = 0; // feed tensor already was the fixed buffer
  std::int64_t feed_values_ignored = 0; // fed values whose role is not in copy_roles
  std::int64_t crossing_copies = 0;     // values an eager segment made copied to where a graph reads them
  std::int64_t eager_segment_runs = 0;  // eager segments of segmented steps run

  // Non-zero counters by name, for result records.
  std::map<std::string, std::int64_t> to_map() const;
};

}  // namespace graphbench
