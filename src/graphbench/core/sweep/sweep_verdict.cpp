#include "graphbench/core/sweep/sweep_verdict.h"

#include "graphbench/core/record/launches.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace graphbench {

namespace {

constexpr const char* kSweepBaseline = "eager";

const ResultRecord* find_sweep_record(const std::vector<ResultRecord>& records, const std::string& group,
                               const std::string& variant, std::int64_t value) {
  for (const ResultRecord& r : records) {
    if (r.sweep && r.sweep->group == group && r.sweep->value == value && r.variant == variant) return &r;
  }
  return nullptr;
}

std::string why_not_measured(const ResultRecord* r, const std::string& variant) {
  if (r == nullptr) return fmt::format("no {} record", variant);
  if (r->status != RecordStatus::kOk) {
    return fmt::format("{} {}{}", variant, to_string(r->status), r->reason.empty() ? "" : ": " + r->reason);
  }
  return fmt::format("{} has no timing", variant);
}

bool has_timing(const ResultRecord* r) { return r != nullptr && r->status == RecordStatus::kOk && r->stats; }

// The graph's pool at one point: the graphs' pools of its record together.
std::optional<std::int64_t> graph_pool_of(const ResultRecord& r) {
  if (r.memory && r.memory->graph_pool_bytes) return r.memory->graph_pool_bytes;
  return graph_pools_bytes(r);
}

// Where a property of the points holds from the smallest size on: `up_to`, the last size before
// the first point without it (none: the smallest has not), that first point (`stops_at`; none: it
// holds at every size), and the sizes above `stops_at` where it holds again. Points not measured
// are skipped (neither with the property nor without it) and listed.
struct LeadingRun {
  std::optional<std::int64_t> up_to;
  std::optional<std::int64_t> stops_at;
  std::vector<std::int64_t> again_at;
  std::vector<std::int64_t> not_measured;
};

bool faster_with_confidence(const SweepPointFigures& p) {
  return p.ok && p.speedup_ci95 && p.speedup_ci95->low > 1.0;
}

bool pays_at_least_5_percent(const SweepPointFigures& p) { return p.ok && p.speedup >= kPaysAtLeast; }

LeadingRun leading_run(const std::vector<SweepPointFigures>& points, bool (*holds)(const SweepPointFigures&)) {
  LeadingRun run;
  for (const auto& p : points) {
    if (!p.ok) {
      run.not_measured.push_back(p.value);
      continue;
    }
    if (!run.stops_at) {
      if (holds(p)) {
        run.up_to = p.value;
      } else {
        run.stops_at = p.value;
      }
    } else if (holds(p)) {
      run.again_at.push_back(p.value);
    }
  }
  return run;
}

// A candidate for capture: at least 5% faster, and faster with 95% confidence.
bool graph_pays(const SweepPointFigures& p) { return pays_at_least_5_percent(p) && faster_with_confidence(p); }

const SweepPointFigures* sweep_point_at(const std::vector<SweepPointFigures>& points, std::int64_t value) {
  for (const auto& p : points) {
    if (p.value == value) return &p;
  }
  return nullptr;
}

// The smallest captured size at or above `value`, or nullopt.
std::optional<std::int64_t> next_captured_size(const std::vector<std::int64_t>& captured, std::int64_t value) {
  for (const std::int64_t c : captured) {
    if (c >= value) return c;
  }
  return std::nullopt;
}

std::vector<std::int64_t> swept_values(const std::vector<ResultRecord>& records, const std::string& group) {
  std::vector<std::int64_t> values;
  for (const ResultRecord& r : records) {
    if (r.sweep && r.sweep->group == group) values.push_back(r.sweep->value);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

// The points of `variant` at each value, eager's and the variant's records side by side; values
// without both records ok are kept, !ok with the reason.
std::vector<SweepPointFigures> sweep_points(const std::vector<ResultRecord>& records, const std::string& group,
                                            const std::string& variant) {
  std::vector<SweepPointFigures> points;
  for (const std::int64_t value : swept_values(records, group)) {
    SweepPointFigures p;
    p.value = value;
    const ResultRecord* eager = find_sweep_record(records, group, kSweepBaseline, value);
    const ResultRecord* graph = find_sweep_record(records, group, variant, value);
    if (!has_timing(eager)) {
      p.reason = why_not_measured(eager, kSweepBaseline);
    } else if (!has_timing(graph)) {
      p.reason = why_not_measured(graph, variant);
    } else {
      measure_against_eager(p, *graph, *eager);
      p.pool_bytes = graph_pool_of(*graph);
      p.energy_measured = eager->energy.has_value() || graph->energy.has_value();
      if (eager->energy) p.eager_j_per_step = eager->energy->joules_per_step;
      if (graph->energy) p.graph_j_per_step = graph->energy->joules_per_step;
    }
    points.push_back(std::move(p));
  }
  return points;
}

}  // namespace

std::vector<std::int64_t> recommend_capture_sizes(const std::vector<SweepPointFigures>& points) {
  std::vector<const SweepPointFigures*> candidates;
  for (const auto& p : points) {
    if (graph_pays(p)) candidates.push_back(&p);
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const SweepPointFigures* a, const SweepPointFigures* b) { return a->value > b->value; });
  std::vector<std::int64_t> captured;  // decreasing while built
  for (const SweepPointFigures* s : candidates) {
    if (!captured.empty()) {
      const SweepPointFigures& above = *sweep_point_at(points, captured.back());
      const bool padding_close = above.step_us <= kPaysAtLeast * s->step_us;
      const bool padding_pays = above.step_us * kPaysAtLeast <= s->eager_us;
      if (padding_close && padding_pays) continue;
    }
    captured.push_back(s->value);
  }
  std::reverse(captured.begin(), captured.end());
  return captured;
}

std::vector<SizePlan> plan_sizes(const std::vector<SweepPointFigures>& points, const std::vector<std::int64_t>& captured) {
  std::vector<SizePlan> plan;
  for (const auto& p : points) {
    if (!p.ok) continue;
    SizePlan s;
    s.value = p.value;
    s.eager_us = p.eager_us;
    const auto target = next_captured_size(captured, p.value);
    const SweepPointFigures* replayed = target ? sweep_point_at(points, *target) : nullptr;
    if (replayed != nullptr && *target == p.value) {
      s.action = "replay";
    } else if (replayed != nullptr && replayed->step_us * kPaysAtLeast <= p.eager_us) {
      s.action = "pad";
      s.pad_to = *target;
    } else {
      s.action = "eager";
    }
    if (replayed != nullptr) {
      s.replay_us = replayed->step_us;
      s.speedup = p.eager_us / replayed->step_us;
    }
    plan.push_back(s);
  }
  return plan;
}

SweepVerdict verdict_of(const std::vector<ResultRecord>& records, const std::string& group, const std::string& axis,
                        const std::string& variant) {
  SweepVerdict v;
  v.group = group;
  v.axis = axis;
  v.variant = variant;
  v.points = sweep_points(records, group, variant);
  const LeadingRun faster = leading_run(v.points, faster_with_confidence);
  v.crossover = faster.up_to;
  v.not_faster_at = faster.stops_at;
  v.not_measured = faster.not_measured;
  v.faster_again_at = faster.again_at;
  const LeadingRun pays = leading_run(v.points, pays_at_least_5_percent);
  v.pays_up_to = pays.up_to;
  v.not_paying_at = pays.stops_at;
  v.pays_again_at = pays.again_at;
  v.capture_sizes = recommend_capture_sizes(v.points);
  v.plan = plan_sizes(v.points, v.capture_sizes);
  for (const std::int64_t size : v.capture_sizes) {
    const auto pool = sweep_point_at(v.points, size)->pool_bytes;
    if (!pool) {
      v.separate_pools_bytes.reset();
      break;
    }
    v.separate_pools_bytes = v.separate_pools_bytes.value_or(0) + *pool;
  }
  return v;
}

std::vector<SweepVerdict> sweep_verdicts(const RunReport& report) {
  // (group, variant) in the order the records come; the axis of each group.
  std::vector<std::pair<std::string, std::string>> keys;
  std::map<std::string, std::string> axes;
  for (const ResultRecord& r : report.records) {
    if (!r.sweep) continue;
    axes.emplace(r.sweep->group, r.sweep->axis);
    const bool graph = r.capture_ms.has_value() || !r.graphs.empty();
    const auto key = std::make_pair(r.sweep->group, r.variant);
    if (graph && r.variant != kSweepBaseline && std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  std::vector<SweepVerdict> verdicts;
  for (const auto& [group, variant] : keys) {
    SweepVerdict v = verdict_of(report.records, group, axes.at(group), variant);
    for (const SharedPoolMeasurement& m : report.shared_pools) {
      if (m.group != group || m.variant != variant) continue;
      v.shared_pool_bytes = m.reserved_bytes;
      v.shared_pool_error = m.error;
    }
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

void measure_against_eager(AgainstEager& out, const ResultRecord& variant, const ResultRecord& eager) {
  out.ok = true;
  out.reason.clear();
  out.eager_us = eager.stats->median;
  out.step_us = variant.stats->median;
  out.speedup = variant.speedup_vs_eager.value_or(out.eager_us / out.step_us);
  out.speedup_ci95 = variant.speedup_ci95;
  out.capture_ms = variant.capture_ms;
  out.warmup_ms = variant.warmup_ms;
  out.break_even_replays = variant.break_even_replays;
  out.break_even_s = variant.break_even_s;
}

}  // namespace graphbench
