#include "graphbench/core/sweep/sweep_verdict.h"

#include "graphbench/core/record/launches.h"
#include "graphbench/core/workload/capture_scope.h"
#include "graphbench/core/workload/variant.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace graphbench {

namespace {

// A graph variant the scope shapes: the engine's graph executor (reference variants capture by
// hand, the same graph at every scope).
bool is_scoped_graph_variant_name(const std::string& name) {
  const Variant* v = Variant::find(name);
  return v != nullptr && v->needs_cuda_graph() && !v->is_reference();
}

bool is_eager_baseline_name(const std::string& name) {
  const Variant* v = Variant::find(name);
  return v != nullptr && v->is_eager_baseline();
}

// The fixed order of scope kinds, narrowest first: what each leaves out of the graphs.
int scope_kind_rank(const std::string& scope) {
  try {
    switch (parse_capture_scope(scope, "scope").kind) {
      case ScopeKind::kModules: return 0;
      case ScopeKind::kAttentionOut: return 1;
      case ScopeKind::kLayer: return 2;
      case ScopeKind::kForwardBackward: return 3;
      case ScopeKind::kAuto: return 4;
      case ScopeKind::kFull: return 5;
    }
  } catch (const std::exception&) {
  }
  return 6;  // a scope this version does not know (a newer file): last
}

std::optional<double> captured_share_of(const ResultRecord& r) {
  if (!r.profile || !(r.profile->kernels_per_step > 0) || r.graphs.empty()) return std::nullopt;
  double captured = 0.0;
  for (const GraphFacts& g : r.graphs) {
    if (!g.kernel_nodes) return std::nullopt;
    captured += static_cast<double>(*g.kernel_nodes);
  }
  return std::min(1.0, captured / r.profile->kernels_per_step);
}

std::string not_measured_reason(const ResultRecord& r) {
  if (r.status == RecordStatus::kOk) return "no step time";
  return fmt::format("{}{}{}", to_string(r.status), r.reason.empty() ? "" : ": ", r.reason);
}

ScopeFigures figures_of(const ResultRecord& variant, const ResultRecord* eager) {
  ScopeFigures f;
  f.scope = variant.scope;
  f.case_name = variant.case_name;
  if (variant.status != RecordStatus::kOk || !variant.stats) {
    f.reason = not_measured_reason(variant);
    return f;
  }
  if (eager == nullptr || eager->status != RecordStatus::kOk || !eager->stats) {
    f.reason = eager == nullptr ? "eager not run" : "eager " + not_measured_reason(*eager);
    return f;
  }
  if (!variant.speedup_vs_eager || !(*variant.speedup_vs_eager > 0)) {
    f.reason = "no speedup against eager";
    return f;
  }
  measure_against_eager(f, variant, *eager);
  f.eager_rel_noise = eager->rel_noise;
  f.step_rel_noise = variant.rel_noise;
  f.graphs_per_step = variant.graphs_per_step;
  f.captured = !(variant.graphs_per_step && *variant.graphs_per_step == 0) &&
               variant.reason.rfind(kRanEagerlyReason, 0) != 0;
  f.launches_per_step = variant.launches_per_step;
  if (variant.host_stats) f.host_us = variant.host_stats->median;
  f.pool_bytes = graph_pools_bytes(variant);
  f.captured_share = captured_share_of(variant);
  return f;
}

void order_narrowest_first(ScopeVerdict& v) {
  std::vector<ScopeFigures> measured;
  std::vector<ScopeFigures> others;
  for (ScopeFigures& f : v.scopes) (f.ok ? measured : others).push_back(std::move(f));
  const bool by_share = !measured.empty() && std::all_of(measured.begin(), measured.end(), [](const ScopeFigures& f) {
    return f.captured_share.has_value();
  });
  v.order = by_share ? "captured share" : "scope kind";
  std::stable_sort(measured.begin(), measured.end(), [&](const ScopeFigures& a, const ScopeFigures& b) {
    if (by_share && *a.captured_share != *b.captured_share) return *a.captured_share < *b.captured_share;
    return scope_kind_rank(a.scope) < scope_kind_rank(b.scope);
  });
  v.scopes = std::move(measured);
  v.scopes.insert(v.scopes.end(), others.begin(), others.end());
}

// (e - s) / (e - f) over e, s and f each within its median's 95% interval (+- its relative noise),
// eager's e shared by both terms: the share is monotone in each, so its range is at the ends.
std::optional<stats::Interval> gain_share_interval(double e, double ne, double s, double ns, double f, double nf) {
  if (!std::isfinite(ne) || !std::isfinite(ns) || !std::isfinite(nf)) return std::nullopt;
  double low = INFINITY, high = -INFINITY;
  for (const double ee : {e * (1.0 - ne), e * (1.0 + ne)}) {
    for (const double ss : {s * (1.0 - ns), s * (1.0 + ns)}) {
      for (const double ff : {f * (1.0 - nf), f * (1.0 + nf)}) {
        if (!(ee - ff > 0.0)) return std::nullopt;  // the full graph's gain itself is not sure
        const double share = (ee - ss) / (ee - ff);
        low = std::min(low, share);
        high = std::max(high, share);
      }
    }
  }
  return stats::Interval{low, high};
}

void judge(ScopeVerdict& v) {
  const auto full = std::find_if(v.scopes.begin(), v.scopes.end(), [](const ScopeFigures& f) { return f.scope == "full"; });
  if (full == v.scopes.end()) {
    v.no_verdict = "no full scope was run beside the others: the gain to keep is unknown";
    return;
  }
  if (!full->ok) {
    v.no_verdict = fmt::format("the full scope was not measured ({}): the gain to keep is unknown", full->reason);
    return;
  }
  if (!full->captured) {
    // The whole step cannot be captured: no gain of its own to keep. What captures instead?
    const ScopeFigures* best = nullptr;
    for (const ScopeFigures& f : v.scopes) {
      if (f.ok && f.captured && f.scope != "full" && f.speedup > 1.0 && (best == nullptr || f.step_us < best->step_us)) {
        best = &f;
      }
    }
    if (best != nullptr) {
      v.instead_of_full = best->scope;
    } else {
      v.no_verdict = "the whole step cannot be captured (it ran eagerly), and no other scope beats eager";
    }
    return;
  }
  const double eager_us = full->eager_us;
  const double full_gain_us = eager_us - full->step_us;
  if (!(full_gain_us > 0)) {
    v.no_verdict = fmt::format("the full graph is not faster than eager ({:.2f}x): there is no gain to keep", full->speedup);
    return;
  }
  for (ScopeFigures& f : v.scopes) {
    if (!f.ok) continue;
    f.gain_share = (eager_us - f.step_us) / full_gain_us;
    f.gain_share_ci95 = gain_share_interval(eager_us, full->eager_rel_noise, f.step_us, f.step_rel_noise, full->step_us,
                                            full->step_rel_noise);
  }
  for (const ScopeFigures& f : v.scopes) {
    if (f.ok && *f.gain_share >= kKeepsAtLeast) {
      v.narrowest = f.scope;
      return;
    }
  }
}

}  // namespace

std::string scope_group_of(const ResultRecord& record) {
  return record.scope_group;  // old files' records get theirs from their names (core/report/json_reader.cpp)
}

std::vector<ScopeVerdict> scope_verdicts(const std::vector<ResultRecord>& records) {
  // Groups and their graph variants, in the order the records come.
  std::vector<std::pair<std::string, std::string>> keys;
  std::map<std::string, const ResultRecord*> eager_of_case;
  for (const ResultRecord& r : records) {
    const std::string group = scope_group_of(r);
    if (group.empty()) continue;
    if (is_eager_baseline_name(r.variant)) eager_of_case[r.case_name] = &r;
    if (!is_scoped_graph_variant_name(r.variant)) continue;
    const auto key = std::make_pair(group, r.variant);
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  std::vector<ScopeVerdict> out;
  for (const auto& [group, variant] : keys) {
    ScopeVerdict v;
    v.group = group;
    v.variant = variant;
    for (const ResultRecord& r : records) {
      if (r.variant != variant || scope_group_of(r) != group) continue;
      const auto eager = eager_of_case.find(r.case_name);
      v.scopes.push_back(figures_of(r, eager != eager_of_case.end() ? eager->second : nullptr));
    }
    if (v.scopes.size() < 2) continue;  // one scope compares with nothing
    order_narrowest_first(v);
    judge(v);
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace graphbench
