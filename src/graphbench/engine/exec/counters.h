// What the engine did, counted and reported: "captured once, replayed N times" visible, not assumed.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace graphbench {

// Each counter once: the field and its name in result records.
#define GRAPHBENCH_COUNTERS(X)                                                                            \
  X(compiles)             /* programs compiled (compile cache misses) */                                  \
  X(compile_cache_hits)                                                                                   \
  X(eager_runs)                                                                                           \
  X(static_runs)                                                                                          \
  X(bindings)             /* fixed-slot bindings made (one per graph key) */                              \
  X(captures)                                                                                             \
  X(capture_failures)                                                                                     \
  X(replays)                                                                                              \
  X(graph_cache_hits)     /* runs that found their graph already captured */                              \
  X(graph_cache_entries)                                                                                  \
  X(eager_fallback_runs)  /* runs done eagerly after a failed capture */                                  \
  X(warmup_runs)                                                                                          \
  X(feed_copies)          /* tensors copied from a feed into fixed buffers */                             \
  X(feed_copies_skipped)  /* feed tensor already was the fixed buffer */                                  \
  X(feed_values_ignored)  /* fed values whose role is not in copy_roles */                                \
  X(crossing_copies)      /* values an eager segment made copied to where a graph reads them */          \
  X(eager_segment_runs)   /* eager segments of segmented steps run */

struct Counters {
#define GRAPHBENCH_COUNTER_FIELD(name) std::int64_t name = 0;
  GRAPHBENCH_COUNTERS(GRAPHBENCH_COUNTER_FIELD)
#undef GRAPHBENCH_COUNTER_FIELD

  // Non-zero counters by name, for result records.
  std::map<std::string, std::int64_t> to_map() const;
};

}  // namespace graphbench
