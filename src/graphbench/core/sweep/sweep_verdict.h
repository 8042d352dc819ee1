// The verdicts of a sweep and of a case run at several capture scopes, plain arithmetic on the
// records. A sweep's (docs/results.md, "Sweeps"): for each graph variant, where the graph stops
// paying, which sizes to capture, what keeping them costs in memory, and what to do with a size
// between two captured ones (the runner adds the shared pool). A scopes' (docs/scopes.md): every
// scope's figures, the share of the full graph's gain it keeps, and the narrowest that keeps enough.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/core/stats/statistics.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// A graph variant measured against eager at one point of a case: a sweep's size or a capture scope.
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

// A graph pays when it is at least this much faster than eager (speedup >= 1.05).
inline constexpr double kPaysAtLeast = 1.05;

// One point of a sweep, for one graph variant against eager (step_us: the graph's replay;
// pool_bytes: the graph's own pool at this size).
struct SweepPointFigures : AgainstEager {
  std::int64_t value = 0;
  // Energy per step of eager and of the graph (--energy on; absent where not measured or not
  // resolved), and whether either record carried an energy figure at all.
  std::optional<double> eager_j_per_step;
  std::optional<double> graph_j_per_step;
  bool energy_measured = false;
};

// What to do with a real size equal to a point's value.
struct SizePlan {
  std::int64_t value = 0;
  std::string action;  // "replay" (captured), "pad" (replay the next captured size) or "eager"
  std::optional<std::int64_t> pad_to;
  double eager_us = 0.0;                 // eager at the true size
  std::optional<double> replay_us;       // the replay it would run (its own or the padded one)
  std::optional<double> speedup;         // eager_us / replay_us
};

struct SweepVerdict {
  std::string group;
  std::string axis;
  std::string variant;
  std::vector<SweepPointFigures> points;  // by value
  // Faster with 95% confidence (the speedup's interval above 1) from the smallest size up to
  // `crossover` (none: not at the smallest), the last size before the first that is not
  // (`not_faster_at`); `faster_again_at`: the sizes above it where it is again. Points not
  // measured are neither, and named in `not_measured`.
  std::optional<std::int64_t> crossover;
  std::optional<std::int64_t> not_faster_at;
  std::vector<std::int64_t> faster_again_at;
  // Likewise for paying at least 5% (speedup >= kPaysAtLeast).
  std::optional<std::int64_t> pays_up_to;
  std::optional<std::int64_t> not_paying_at;
  std::vector<std::int64_t> pays_again_at;
  std::vector<std::int64_t> not_measured;   // sizes whose point is not ok (no figure: not judged)
  std::vector<std::int64_t> capture_sizes;  // recommended, increasing
  std::vector<SizePlan> plan;               // one per measured point
  // Keeping the graphs of capture_sizes: each in its own pool (the sum of the points' pools), and
  // all in one shared pool (measured; absent where it was not).
  std::optional<std::int64_t> separate_pools_bytes;
  std::optional<std::int64_t> shared_pool_bytes;
  std::string shared_pool_error;
};

// The recommendation rule (docs/results.md): the candidates are the points where the graph pays
// (speedup >= kPaysAtLeast and its interval above 1). The largest candidate is captured; going
// down, a candidate is left to padding when replaying the next captured size is within 5% of its
// own replay and still pays against eager at its size, and captured otherwise.
std::vector<std::int64_t> recommend_capture_sizes(const std::vector<SweepPointFigures>& points);

// For each ok point: replay its own graph, pad up to the next captured size when that replay
// pays against eager at the true size, or run eagerly.
std::vector<SizePlan> plan_sizes(const std::vector<SweepPointFigures>& points, const std::vector<std::int64_t>& captured);

// Every sweep of `report` with every graph variant it ran (a variant with a capture time at some
// point), in the order the records come; the shared pools measured by the runner joined in.
std::vector<SweepVerdict> sweep_verdicts(const RunReport& report);

// The verdict of one sweep (`group`, swept over `axis`) for one graph variant, from its records
// alone (no shared pool): the runner asks for it after the sweep's last point to know which sizes
// to capture into one pool.
SweepVerdict verdict_of(const std::vector<ResultRecord>& records, const std::string& group, const std::string& axis,
                        const std::string& variant);

// A scope is good enough when it keeps at least this share of the full graph's gain.
inline constexpr double kKeepsAtLeast = 0.95;

// One scope of a case, for one graph variant against the eager baseline of the same point
// (pool_bytes: the graphs' pools, summed).
struct ScopeFigures : AgainstEager {
  std::string scope;      // "layer", "modules=attn|mlp", ...
  std::string case_name;  // the point: NAME[scope=SCOPE]
  std::optional<std::int64_t> graphs_per_step;
  std::optional<double> launches_per_step;
  std::optional<double> host_us;  // host wall time per step (median)
  // False when the variant captured nothing and ran its step eagerly (its capture failed).
  bool captured = true;
  // Kernel nodes of the graphs over the kernels the device ran per step: how much the scope
  // captures. Absent without a kernel profile or the graphs' kernel counts.
  std::optional<double> captured_share;
  // The share of the full scope's gain this scope keeps, (eager - scope) / (eager - full), with the
  // full scope's eager (eager steps move between points more than scopes differ). Absent without a
  // full scope that gains.
  std::optional<double> gain_share;
  // Its range over the step times' 95% intervals; absent where a median has none.
  std::optional<stats::Interval> gain_share_ci95;
  double eager_rel_noise = 0.0, step_rel_noise = 0.0;  // the records' rel_noise
};

struct ScopeVerdict {
  std::string group;    // the case's own name, without [scope=...]
  std::string variant;  // the graph variant
  // Narrowest first (see `order`), then the scopes not measured in the order they ran.
  std::vector<ScopeFigures> scopes;
  // "captured share" (every measured scope's known: smallest first) or "scope kind" (modules=REGEX,
  // attention-out, layer, fwd-bwd, auto, full).
  std::string order;
  // The narrowest measured scope keeping at least kKeepsAtLeast of the gain (full itself when none
  // narrower does), or none, `no_verdict` saying why.
  std::optional<std::string> narrowest;
  std::string no_verdict;
  // When the whole step cannot be captured (the full scope's capture failed and it ran eagerly):
  // the fastest scope that captures and beats eager, if any: what to take instead.
  std::optional<std::string> instead_of_full;
};

// One verdict per case run with two scopes or more and per engine graph variant among its records
// (not the reference variants, whose graphs are captured by hand whatever the scope), in the order
// the records come.
std::vector<ScopeVerdict> scope_verdicts(const std::vector<ResultRecord>& records);

// The case a scope point belongs to (its record's scope_group); "" outside a scope sweep.
std::string scope_group_of(const ResultRecord& record);

// A list of captured batch sizes judged as a server uses it (docs/sweeps.md, "Against vLLM's
// list"): every real batch from 1 to B_max replays the smallest captured size at or above it, or
// runs eagerly above the largest. graphbench's sizes against vLLM's default list on the same sweep.
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
