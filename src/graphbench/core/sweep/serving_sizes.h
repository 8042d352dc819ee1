// A list of captured batch sizes judged as a server would use it (docs/sweeps.md, "Against vLLM's
// list"): every real batch from 1 to B_max replays the graph of the smallest captured size at or
// above it (padded up), or runs eagerly above the largest one. graphbench's recommended sizes are
// set against vLLM's default list on the same sweep: mean step, graphs kept, their pools and
// their capture time. Plain arithmetic on a sweep's points, no LibTorch.
#pragma once

#include "graphbench/core/sweep/sweep_verdict.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// The largest real batch judged when the sweep reaches it (vLLM's default largest captured size).
inline constexpr std::int64_t kServingMaxBatch = 256;
// The aim: graphbench's list within 2% of vLLM's mean step ...
inline constexpr double kServingStepWithin = 1.02;
// ... with at most half its graphs and half its pool memory.
inline constexpr double kServingAtMostShare = 0.5;

// vLLM's default list of captured batch sizes up to `max_batch`: 1, 2 and 4, then every multiple
// of 8 (1, 2, 4, 8, 16, 24, ..., 256 for 256).
std::vector<std::int64_t> vllm_default_capture_sizes(std::int64_t max_batch = kServingMaxBatch);

// One list of captured sizes over the real batches 1..max_batch.
struct ServingListCost {
  std::vector<std::int64_t> sizes;  // increasing
  // Captured sizes whose graph the sweep did not measure (no point, or its point not ok): without
  // them the list cannot be judged.
  std::vector<std::int64_t> missing;
  // Real batches above the largest captured size that run eagerly, and how many of them had no
  // eager time of their own (linearly interpolated between the two measured sizes around them).
  std::int64_t eager_batches = 0;
  std::int64_t eager_interpolated = 0;
  // Real batches run eagerly outside the measured sizes (nothing to interpolate from).
  std::vector<std::int64_t> eager_unmeasured;
  std::optional<double> mean_step_us;  // over b = 1..max_batch, each batch counted once
  std::int64_t graphs = 0;
  std::optional<std::int64_t> pool_each_bytes;  // a pool per graph: the sizes' pools summed
  std::optional<std::int64_t> shared_pool_bytes;  // one pool shared by all (measured for graphbench's list only)
  // The largest of the sizes' pools: one pool shared by every graph of the list holds at least this.
  std::optional<std::int64_t> largest_pool_bytes;
  std::optional<double> capture_ms;  // capture and warm-up of every graph, summed
};

// Evaluates `sizes` on the sweep's points over the real batches 1..max_batch.
ServingListCost serving_list_cost(const std::vector<SweepPointFigures>& points, const std::vector<std::int64_t>& sizes,
                                  std::int64_t max_batch);

struct ServingComparison {
  std::int64_t max_batch = 0;
  ServingListCost graphbench;  // the sweep verdict's capture_sizes
  ServingListCost vllm;        // vllm_default_capture_sizes(max_batch)
  // graphbench's over vLLM's; absent where either side is not known.
  std::optional<double> mean_step_ratio;
  std::optional<double> graphs_ratio;
  std::optional<double> pool_ratio;  // a pool each against a pool each
  // vLLM keeps its graphs in one shared pool: graphbench's shared pool against the largest of
  // vLLM's pools, the most that the ratio of the two shared pools can be (vLLM's shared pool is
  // not measured; it holds at least its largest graph's).
  std::optional<double> shared_pool_ratio_at_most;
  std::optional<double> capture_ratio;
  // Within 2% of vLLM's mean step with at most half its graphs and pool memory (a pool each, and
  // sharing one pool where graphbench's shared pool was measured); absent when the figures it
  // needs are not known (`not_judged` says why).
  std::optional<bool> meets_aim;
  std::string not_judged;
  // vLLM's sizes the sweep did not measure: the judgement is made over the measured sizes (vLLM's
  // list without these), and names them.
  std::vector<std::int64_t> vllm_unmeasured;
};

// Whether a sweep is judged against vLLM's list: over `batch`, from batch 1, reaching at least two
// of vLLM's sizes beyond 1 (2 and 4 at least).
bool serving_comparison_applies(const SweepVerdict& v);

// graphbench's list against vLLM's over 1..min(kServingMaxBatch, the sweep's largest size).
ServingComparison compare_with_vllm(const SweepVerdict& v);

}  // namespace graphbench
