// The verdict of a case run with several capture scopes (docs/scopes.md, "Choosing a scope"): for
// each graph variant every scope's figures and the share of the full graph's gain it keeps, and the
// narrowest scope that keeps at least kKeepsAtLeast of it. Plain arithmetic on the records.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/core/sweep/against_eager.h"
#include "graphbench/core/stats/statistics.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

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

}  // namespace graphbench
