#include "graphbench/core/record/merge_repetitions.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/stats/block_bootstrap.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace graphbench {

namespace {

using CaseVariant = std::pair<std::string, std::string>;  // (case, variant)

RepetitionFigures repetition_figures(const RepetitionResult& repetition, const ResultRecord* r) {
  RepetitionFigures f;
  if (r == nullptr) {
    f.status = "missing";
    f.reason = !repetition.failure.empty() ? fmt::format("repetition {} {}", repetition.index, repetition.failure)
                                           : fmt::format("not in the results of repetition {}", repetition.index);
    return f;
  }
  f.status = to_string(r->status);
  f.reason = r->reason;
  f.samples = static_cast<std::int64_t>(r->samples_us.size());
  if (r->stats) f.median_us = r->stats->median;
  // A repetition with fewer samples than it asked for has no interval of its own (as its record).
  if (has_ok_samples(r) && !has_too_few_samples(*r)) {
    f.median_ci95 = stats::median_interval_by_rounds(r->samples_us);
  }
  f.speedup_vs_eager = r->speedup_vs_eager;
  f.speedup_ci95 = r->speedup_ci95;
  return f;
}

void append_samples(std::vector<double>& to, const std::vector<double>& from) { to.insert(to.end(), from.begin(), from.end()); }

void add_once(std::vector<std::string>& warnings, const std::string& warning) {
  if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end()) warnings.push_back(warning);
}

bool positive_bounds(const std::optional<stats::Interval>& i) { return i && i->low > 0.0 && i->high >= i->low; }

// The repetitions' own intervals pooled: the geometric means of their lower and of their upper bounds.
stats::Interval pooled(const std::vector<stats::Interval>& within) {
  double low = 0.0, high = 0.0;
  for (const stats::Interval& i : within) {
    low += std::log(i.low) / static_cast<double>(within.size());
    high += std::log(i.high) / static_cast<double>(within.size());
  }
  return within.empty() ? stats::Interval{0.0, 0.0} : stats::Interval{std::exp(low), std::exp(high)};
}

// The smallest interval that holds both (b ignored where empty: {0, 0}).
stats::Interval hull(const stats::Interval& a, const stats::Interval& b) {
  if (!(b.high > 0.0)) return a;
  return {std::min(a.low, b.low), std::max(a.high, b.high)};
}

// The repetitions' warnings, once each: as they are where every repetition that has the record
// gave it, else prefixed with the repetitions that did ("repetitions 1, 3: IQR is 12% ...").
std::vector<std::string> repetition_warnings(const std::vector<RepetitionResult>& repetitions,
                                             const std::vector<const ResultRecord*>& found) {
  std::vector<std::string> texts;
  std::map<std::string, std::vector<int>> where;
  std::size_t having = 0;
  for (std::size_t k = 0; k < found.size(); ++k) {
    if (found[k] == nullptr) continue;
    ++having;
    for (const std::string& w : found[k]->warnings) {
      auto& indices = where[w];
      if (indices.empty()) texts.push_back(w);
      if (std::find(indices.begin(), indices.end(), repetitions[k].index) == indices.end()) {
        indices.push_back(repetitions[k].index);
      }
    }
  }
  std::vector<std::string> out;
  for (const std::string& w : texts) {
    const std::vector<int>& indices = where[w];
    if (indices.size() == having) {
      out.push_back(w);
    } else {
      out.push_back(fmt::format("{} {}: {}", indices.size() == 1 ? "repetition" : "repetitions", fmt::join(indices, ", "), w));
    }
  }
  return out;
}

// The merged record of one key: `found[k]` is repetition k's record (null where it has none).
ResultRecord merge_record(const std::vector<RepetitionResult>& repetitions, const std::vector<const ResultRecord*>& found,
                       int requested) {
  Repetitions info;
  info.requested = requested;
  const ResultRecord* first_ok = nullptr;
  const ResultRecord* first_any = nullptr;
  for (std::size_t k = 0; k < repetitions.size(); ++k) {
    info.runs.push_back(repetition_figures(repetitions[k], found[k]));
    if (found[k] != nullptr && first_any == nullptr) first_any = found[k];
    if (has_ok_samples(found[k])) {
      ++info.succeeded;
      if (first_ok == nullptr) first_ok = found[k];
    }
  }
  ResultRecord merged = first_ok != nullptr ? *first_ok : *first_any;
  if (first_ok != nullptr) {
    merged.samples_us.clear();
    merged.host_samples_us.clear();
    merged.issue_samples_us.clear();
    merged.warnings = repetition_warnings(repetitions, found);
    std::vector<std::string> stop_reasons;
    for (std::size_t k = 0; k < found.size(); ++k) {
      const ResultRecord* r = found[k];
      if (!has_ok_samples(r)) continue;
      append_samples(merged.samples_us, r->samples_us);
      append_samples(merged.host_samples_us, r->host_samples_us);
      append_samples(merged.issue_samples_us, r->issue_samples_us);
      add_once(stop_reasons, r->stop_reason);
    }
    merged.stop_reason = fmt::format("{}", fmt::join(stop_reasons, "; "));
    merged.stats = stats::summarize(merged.samples_us);
    if (!merged.host_samples_us.empty()) merged.host_stats = stats::summarize(merged.host_samples_us);
    if (!merged.issue_samples_us.empty()) merged.issue_median_us = stats::percentile(merged.issue_samples_us, 50.0);
    if (merged.training) merged.training->step_samples_us = merged.samples_us;
    std::vector<double> medians;
    std::vector<stats::Interval> within;
    for (const RepetitionFigures& f : info.runs) {
      if (f.status == "ok" && f.median_us && positive_bounds(f.median_ci95)) {
        medians.push_back(*f.median_us);
        within.push_back(*f.median_ci95);
      }
    }
    const double median = merged.stats->median;
    std::vector<stats::ProcessSamples> processes;
    std::vector<std::vector<double>> series;
    for (const ResultRecord* r : found) {
      // A repetition with fewer samples than it asked for has no interval of its own, and adds none.
      if (!has_ok_samples(r) || has_too_few_samples(*r)) continue;
      processes.push_back({&r->samples_us, nullptr});
      if (r->samples_us.size() >= 2) series.push_back(r->samples_us);
    }
    if (processes.size() >= 2 && median > 0.0) {
      // Processes, then rounds (core/stats/block_bootstrap.h), and never narrower than the
      // processes' own intervals pooled.
      info.median_ci95 = hull(stats::hierarchical_interval(processes, median), pooled(within));
      merged.rel_noise = (info.median_ci95->high - info.median_ci95->low) / 2.0 / median;
    } else if (!medians.empty() && median > 0.0) {
      info.median_ci95 = stats::across_runs_interval(medians, within, median);
      merged.rel_noise = (info.median_ci95->high - info.median_ci95->low) / 2.0 / median;
    }
    if (series.size() >= 2) {
      const stats::VarianceComponents c = stats::variance_components(series);
      info.round_sd = c.round_sd;
      info.process_sd = c.process_sd;
    }
    if (info.succeeded < static_cast<int>(repetitions.size())) {
      std::vector<std::string> others;
      for (const RepetitionFigures& f : info.runs) {
        if (f.status != "ok") others.push_back(f.reason.empty() ? f.status : fmt::format("{}: {}", f.status, f.reason));
      }
      add_once(merged.warnings, fmt::format("ok in {} of {} repetitions ({})", info.succeeded, repetitions.size(),
                                               fmt::join(others, "; ")));
    }
  }
  merged.repetitions = std::move(info);
  return merged;
}

// A merged record's samples split back into its ok repetitions' (core/record/merge_repetitions.h keeps
// them in order), by repetition number; empty where the record was not ok in a repetition.
std::vector<std::vector<double>> samples_by_repetition(const ResultRecord& r) {
  std::vector<std::vector<double>> out;
  if (!r.repetitions) return out;
  std::size_t at = 0;
  for (const RepetitionFigures& f : r.repetitions->runs) {
    out.emplace_back();
    if (f.status != "ok" || f.samples <= 0) continue;
    const auto count = static_cast<std::size_t>(f.samples);
    if (at + count > r.samples_us.size()) return {};
    out.back().assign(r.samples_us.begin() + static_cast<std::ptrdiff_t>(at),
                      r.samples_us.begin() + static_cast<std::ptrdiff_t>(at + count));
    at += count;
  }
  return at == r.samples_us.size() ? out : std::vector<std::vector<double>>{};
}

// Speedups from the merged medians; their intervals from the processes and their rounds, eager
// and the variant paired by process and round (core/stats/block_bootstrap.h).
void merge_speedups(std::vector<ResultRecord>& records) {
  std::map<std::string, const ResultRecord*> eager;
  for (const ResultRecord& r : records) {
    if (r.variant == "eager" && has_ok_samples(&r) && r.stats) eager[r.case_name] = &r;
  }
  for (ResultRecord& r : records) {
    if (r.variant == "eager" || !has_ok_samples(&r) || !r.stats || !r.repetitions) continue;
    const auto e = eager.find(r.case_name);
    if (e == eager.end() || !(r.stats->median > 0.0)) continue;
    r.speedup_vs_eager = e->second->stats->median / r.stats->median;
    std::vector<double> speedups;
    std::vector<stats::Interval> within;
    for (const RepetitionFigures& f : r.repetitions->runs) {
      if (f.status == "ok" && f.speedup_vs_eager && *f.speedup_vs_eager > 0.0 && positive_bounds(f.speedup_ci95)) {
        speedups.push_back(*f.speedup_vs_eager);
        within.push_back(*f.speedup_ci95);
      }
    }
    const std::vector<std::vector<double>> variant = samples_by_repetition(r);
    const std::vector<std::vector<double>> eager_samples = samples_by_repetition(*e->second);
    std::vector<stats::ProcessSamples> paired;
    for (std::size_t k = 0; k < variant.size() && k < eager_samples.size(); ++k) {
      // Both with an interval of their own: neither had fewer samples than it asked for.
      const bool full = r.repetitions->runs[k].median_ci95 && e->second->repetitions->runs[k].median_ci95;
      if (full && !variant[k].empty() && !eager_samples[k].empty()) paired.push_back({&eager_samples[k], &variant[k]});
    }
    if (paired.size() >= 2) {
      r.speedup_ci95 = stats::hierarchical_interval(paired, *r.speedup_vs_eager);
      if (!within.empty()) r.speedup_ci95 = hull(*r.speedup_ci95, pooled(within));
    } else if (speedups.empty()) {
      r.speedup_ci95.reset();
    } else {
      r.speedup_ci95 = stats::across_runs_interval(speedups, within, *r.speedup_vs_eager);
    }
  }
}

}  // namespace

// Kalibera and Jones's rounds per process for each record with variance components: a process's
// cost c2 its mean wall time (an upper bound on what a process costs beyond its rounds), a round's
// c1 one sample of every ok variant of its case.
void add_optimal_rounds(std::vector<ResultRecord>& records, const std::vector<RepetitionResult>& repetitions) {
  double wall = 0.0;
  int walls = 0;
  for (const RepetitionResult& r : repetitions) {
    if (r.wall_seconds > 0.0) {
      wall += r.wall_seconds;
      ++walls;
    }
  }
  if (walls == 0) return;
  std::map<std::string, double> round_seconds;
  for (const ResultRecord& r : records) {
    if (r.status == RecordStatus::kOk && r.stats && r.steps_per_sample > 0) {
      round_seconds[r.case_name] += r.stats->median * static_cast<double>(r.steps_per_sample) * 1e-6;
    }
  }
  for (ResultRecord& r : records) {
    if (!r.repetitions || !r.repetitions->round_sd || !r.repetitions->process_sd) continue;
    const double c1 = round_seconds[r.case_name];
    if (!(c1 > 0.0)) continue;
    stats::VarianceComponents c;
    c.round_sd = *r.repetitions->round_sd;
    c.process_sd = *r.repetitions->process_sd;
    const double rounds = stats::optimal_rounds(c, wall / walls, c1);
    if (std::isfinite(rounds)) r.repetitions->optimal_rounds = rounds;
  }
}

RunReport merge_repetitions(const std::vector<RepetitionResult>& repetitions, int requested) {
  const RunReport* first = nullptr;
  std::vector<CaseVariant> keys;
  for (const RepetitionResult& repetition : repetitions) {
    if (!repetition.report) continue;
    if (first == nullptr) first = &*repetition.report;
    for (const ResultRecord& r : repetition.report->records) {
      const CaseVariant key{r.case_name, r.variant};
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
  }
  if (first == nullptr) {
    throw InputError(fmt::format("none of the {} repetition(s) run left results to merge", repetitions.size()));
  }
  RunReport merged;
  merged.environment = first->environment;
  merged.shared_pools = first->shared_pools;
  for (const RepetitionResult& repetition : repetitions) {
    if (repetition.report && repetition.report->interrupted) {
      merged.interrupted = true;
      if (merged.interrupted_by.empty()) merged.interrupted_by = repetition.report->interrupted_by;
    }
  }
  for (const CaseVariant& key : keys) {
    std::vector<const ResultRecord*> found;
    for (const RepetitionResult& repetition : repetitions) {
      found.push_back(repetition.report ? repetition.report->find(key.first, key.second) : nullptr);
    }
    merged.records.push_back(merge_record(repetitions, found, requested));
  }
  merge_speedups(merged.records);
  add_optimal_rounds(merged.records, repetitions);
  return merged;
}

}  // namespace graphbench
