// A list of captured batch sizes judged as a server uses it (docs/sweeps.md, "Against vLLM's
// list"): every real batch from 1 to B_max replays the smallest captured size at or above it, or
// runs eagerly above the largest. graphbench's sizes against vLLM's default list on the same sweep.
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
  std::vector<std::int64_t> missing;  // captured sizes the sweep did not measure: not judged
  // Real batches run eagerly (above the largest size), how many of them interpolated between two
  // measured sizes, and those outside the measured sizes.
  std::int64_t eager_batches = 0;
  std::int64_t eager_interpolated = 0;
  std::vector<std::int64_t> eager_unmeasured;
  std::optional<double> mean_step_us;  // over b = 1..max_batch, each batch counted once
  std::int64_t graphs = 0;
  std::optional<std::int64_t> pool_each_bytes;  // a pool per graph: the sizes' pools summed
  std::optional<std::int64_t> shared_pool_bytes;  // one pool shared by all (measured for graphbench's list only)
  std::optional<std::int64_t> largest_pool_bytes;  // a shared pool holds at least this
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
  // graphbench's shared pool over the largest of vLLM's pools: vLLM's (unmeasured) shared pool holds
  // at least that, so this bounds the ratio of the two shared pools.
  std::optional<double> shared_pool_ratio_at_most;
  std::optional<double> capture_ratio;
  // Within kServingStepWithin of vLLM's mean step with at most kServingAtMostShare of its graphs and
  // pool memory; absent when a figure is unknown (`not_judged` says why).
  std::optional<bool> meets_aim;
  std::string not_judged;
  // vLLM's sizes the sweep did not measure: judged without them.
  std::vector<std::int64_t> vllm_unmeasured;
};

// Whether a sweep is judged against vLLM's list: over `batch`, from batch 1, reaching at least two
// of vLLM's sizes beyond 1 (2 and 4 at least).
bool serving_comparison_applies(const SweepVerdict& v);

// graphbench's list against vLLM's over 1..min(kServingMaxBatch, the sweep's largest size).
ServingComparison compare_with_vllm(const SweepVerdict& v);

}  // namespace graphbench
