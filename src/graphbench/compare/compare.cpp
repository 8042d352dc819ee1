// Verdicts of the regression gate: matching records, the ratio and its interval, the noise-aware
// threshold (the rule is documented in compare.h).
#include "graphbench/compare/compare.h"

#include "graphbench/stats/bootstrap.h"
#include "graphbench/core/errors.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace graphbench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr const char* kEagerVariant = "eager";

using RecordKey = std::pair<std::string, std::string>;  // (case, variant)
using RecordIndex = std::map<RecordKey, const ResultRecord*>;

RecordIndex index_records(const RunReport& report) {
  RecordIndex index;
  for (const ResultRecord& r : report.records) index.emplace(RecordKey{r.case_name, r.variant}, &r);
  return index;
}

const ResultRecord* find(const RecordIndex& index, const std::string& case_name,
                         const std::string& variant) {
  const auto it = index.find({case_name, variant});
  return it == index.end() ? nullptr : it->second;
}

double median_of(const ResultRecord& r) {
  if (!r.samples_us.empty()) return stats::percentile(r.samples_us, 50.0);
  return r.stats ? r.stats->median : kNaN;
}

std::string status_text(const ResultRecord& r) {
  std::string text = to_string(r.status);
  if (!r.reason.empty()) text += " (" + r.reason + ")";
  return text;
}

Comparison empty_row(const std::string& case_name, const std::string& variant, Verdict verdict,
                     std::string note) {
  Comparison row;
  row.case_name = case_name;
  row.variant = variant;
  row.verdict = verdict;
  row.ratio = kNaN;
  row.ci95 = {kNaN, kNaN};
  row.threshold_used = kNaN;
  row.noise = kNaN;
  row.aa_noise = kNaN;
  row.baseline_median_us = kNaN;
  row.current_median_us = kNaN;
  row.note = std::move(note);
  return row;
}

// One sample set of the comparison, with the words that name it in a note.
struct SampleSet {
  const std::vector<double>* samples;
  std::string label;  // "baseline", "current eager", ...
};

Verdict verdict_for(const stats::Interval& ci, double threshold) {
  const double upper = 1.0 + threshold;
  const double lower = 1.0 / upper;
  if (ci.low > upper) return Verdict::kSlower;
  if (ci.high < lower) return Verdict::kFaster;
  if (ci.low >= lower && ci.high <= upper) return Verdict::kSame;
  return Verdict::kUnsure;
}

std::string describe(const Comparison& row, double threshold_option) {
  std::string note;
  switch (row.verdict) {
    case Verdict::kSlower: note = fmt::format("{:.2f}x slower", row.ratio); break;
    case Verdict::kFaster: note = fmt::format("{:.2f}x faster", 1.0 / row.ratio); break;
    case Verdict::kUnsure: {
      const double upper = 1.0 + row.threshold_used;
      note = fmt::format("95% CI {:.3f}-{:.3f} crosses {:.3f}", row.ci95.low, row.ci95.high,
                         row.ci95.high > upper ? upper : 1.0 / upper);
      break;
    }
    default: break;
  }
  if (row.threshold_used > threshold_option) {
    if (!note.empty()) note += "; ";
    const bool aa = std::isfinite(row.aa_noise) && row.aa_noise >= row.noise;
    note += fmt::format("threshold raised to the {} {:.1f}%", aa ? "A/A run-to-run noise" : "noise",
                        row.threshold_used * 100.0);
  }
  return note;
}

// The ratio, interval, noise and verdict of `numerators` over `denominators`. `aa_noise` (NaN:
// none) raises the threshold further.
void measure(Comparison& row, const std::vector<SampleSet>& numerators,
             const std::vector<SampleSet>& denominators, const CompareOptions& options,
             double aa_noise) {
  std::vector<SampleSet> all = numerators;
  all.insert(all.end(), denominators.begin(), denominators.end());
  std::string unsure;
  double noise = 0.0;
  for (const SampleSet& set : all) {
    const std::size_t n = set.samples->size();
    if (n < static_cast<std::size_t>(options.min_samples) && unsure.empty()) {
      unsure = fmt::format("{} has {} samples, fewer than min_samples {}", set.label, n,
                           options.min_samples);
    }
    if (n == 0) continue;
    const stats::Summary s = stats::summarize(*set.samples);
    if (!(s.median > 0.0)) {
      row.note = fmt::format("{} median is {}, not positive: no ratio", set.label, s.median);
      row.verdict = Verdict::kUnsure;
      return;
    }
    noise = std::max(noise, s.iqr / s.median / 2.0);
  }
  for (const SampleSet& set : all) {
    if (set.samples->empty()) {
      row.verdict = Verdict::kUnsure;
      row.note = unsure;
      return;
    }
  }
  std::vector<const std::vector<double>*> top, bottom;
  for (const SampleSet& set : numerators) top.push_back(set.samples);
  for (const SampleSet& set : denominators) bottom.push_back(set.samples);
  const stats::RatioEstimate estimate = stats::ratio_of_median_products(top, bottom);
  row.ratio = estimate.ratio;
  row.ci95 = estimate.ci95;
  row.noise = noise;
  row.aa_noise = aa_noise;
  row.threshold_used = std::max(options.threshold, noise);
  if (std::isfinite(aa_noise)) row.threshold_used = std::max(row.threshold_used, aa_noise);
  if (!unsure.empty()) {
    row.verdict = Verdict::kUnsure;
    row.note = unsure;
    return;
  }
  row.verdict = verdict_for(row.ci95, row.threshold_used);
  row.note = describe(row, options.threshold);
}

// |r - 1| with r >= 1: how far apart two positive values are, relatively.
double relative_spread(double a, double b) {
  if (!(a > 0.0) || !(b > 0.0)) return kNaN;
  return std::max(a, b) / std::min(a, b) - 1.0;
}

// The within-run ratio variant / eager of a case, from medians; NaN when it cannot be formed.
double speedup_ratio(const ResultRecord& record, const RecordIndex& index) {
  const ResultRecord* eager = find(index, record.case_name, kEagerVariant);
  if (eager == nullptr || eager->status != RecordStatus::kOk) return kNaN;
  return median_of(record) / median_of(*eager);
}

void compare_speedup(Comparison& row, const ResultRecord& base, const ResultRecord& cur,
                     const RecordIndex& base_index, const RecordIndex& cur_index,
                     const CompareOptions& options, double aa_noise) {
  if (base.variant == kEagerVariant) {
    row.note = "eager is the reference of metric speedup";
    return;
  }
  const ResultRecord* base_eager = find(base_index, base.case_name, kEagerVariant);
  const ResultRecord* cur_eager = find(cur_index, cur.case_name, kEagerVariant);
  for (const auto& [eager, run] :
       {std::pair{base_eager, "baseline"}, std::pair{cur_eager, "current"}}) {
    if (eager == nullptr || eager->status != RecordStatus::kOk) {
      row.note = fmt::format("no ok eager record of this case in {}", run);
      return;
    }
  }
  measure(row, {{&cur.samples_us, "current"}, {&base_eager->samples_us, "baseline eager"}},
          {{&cur_eager->samples_us, "current eager"}, {&base.samples_us, "baseline"}}, options,
          aa_noise);
}

// The run-to-run noise of one record from the A/A pair (NaN without a usable A/A record).
double aa_noise_of(const ResultRecord& base, const RecordIndex& base_index, const RecordIndex* aa_index,
                   const CompareOptions& options) {
  if (aa_index == nullptr) return kNaN;
  const ResultRecord* aa = find(*aa_index, base.case_name, base.variant);
  if (aa == nullptr || aa->status != RecordStatus::kOk || aa->samples_us.empty()) return kNaN;
  if (options.metric == CompareOptions::Metric::kSpeedup) {
    return relative_spread(speedup_ratio(base, base_index), speedup_ratio(*aa, *aa_index));
  }
  return relative_spread(median_of(base), median_of(*aa));
}

Comparison compare_pair(const ResultRecord& base, const ResultRecord& cur,
                        const RecordIndex& base_index, const RecordIndex& cur_index,
                        const RecordIndex* aa_index, const CompareOptions& options) {
  Comparison row = empty_row(base.case_name, base.variant, Verdict::kNotCompared, "");
  row.baseline_median_us = median_of(base);
  row.current_median_us = median_of(cur);
  if (base.status == RecordStatus::kOk && cur.status == RecordStatus::kFailed) {
    row.verdict = Verdict::kFailed;
    row.note = "failed in current" + (cur.reason.empty() ? "" : ": " + cur.reason);
    return row;
  }
  if (base.status != RecordStatus::kOk || cur.status != RecordStatus::kOk) {
    row.note = fmt::format("baseline {}, current {}", status_text(base), status_text(cur));
    return row;
  }
  if (base.samples_us.empty() && cur.samples_us.empty()) {
    row.note = fmt::format("no samples_us on either side (kind {})", cur.kind);
    return row;
  }
  const double aa_noise = aa_noise_of(base, base_index, aa_index, options);
  if (options.metric == CompareOptions::Metric::kSpeedup) {
    compare_speedup(row, base, cur, base_index, cur_index, options, aa_noise);
  } else {
    measure(row, {{&cur.samples_us, "current"}}, {{&base.samples_us, "baseline"}}, options, aa_noise);
  }
  return row;
}

void check_options(const CompareOptions& options) {
  if (!(options.threshold >= 0.0) || !std::isfinite(options.threshold)) {
    throw InputError(
        fmt::format("--threshold: expected a non-negative number, got {}", options.threshold));
  }
  if (options.min_samples < 1) {
    throw InputError(
        fmt::format("--min-samples: expected an integer >= 1, got {}", options.min_samples));
  }
}

void add_environment_warnings(const RunReport& baseline, const RunReport& current,
                              const CompareOptions& options, CompareResult& result) {
  const Environment& b = baseline.environment;
  const Environment& c = current.environment;
  if (b.device != c.device || b.gpu_name != c.gpu_name) {
    std::string warning =
        fmt::format("the runs used different devices: baseline {} {}, current {} {}", b.device,
                    b.gpu_name, c.device, c.gpu_name);
    if (options.metric == CompareOptions::Metric::kTime) {
      warning += "; absolute times are not comparable, consider --metric speedup";
    }
    result.warnings.push_back(warning);
  }
}

}  // namespace

const char* to_string(CompareOptions::Metric metric) {
  return metric == CompareOptions::Metric::kSpeedup ? "speedup" : "time";
}

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFaster: return "FASTER";
    case Verdict::kSame: return "SAME";
    case Verdict::kSlower: return "SLOWER";
    case Verdict::kUnsure: return "UNSURE";
    case Verdict::kFailed: return "FAILED";
    case Verdict::kMissing: return "MISSING";
    case Verdict::kNew: return "NEW";
    case Verdict::kNotCompared: return "NOT COMPARED";
  }
  return "UNKNOWN";
}

bool CompareResult::is_regression(const Comparison& row) const {
  return row.verdict == Verdict::kSlower || row.verdict == Verdict::kFailed ||
         (row.verdict == Verdict::kMissing && fail_on_missing);
}

std::vector<const Comparison*> CompareResult::regressions() const {
  std::vector<const Comparison*> out;
  for (const Comparison& row : rows) {
    if (is_regression(row)) out.push_back(&row);
  }
  return out;
}

int CompareResult::exit_code() const { return regressions().empty() ? kExitOk : kExitFailure; }

void check_unique_records(const RunReport& report, const std::string& source_name) {
  std::map<RecordKey, std::size_t> first;
  for (std::size_t i = 0; i < report.records.size(); ++i) {
    const ResultRecord& r = report.records[i];
    const auto [it, inserted] = first.emplace(RecordKey{r.case_name, r.variant}, i);
    if (!inserted) {
      throw InputError(
          fmt::format("{}: /records/{}: duplicate record for case \"{}\", variant \"{}\" (first at "
                      "/records/{})",
                      source_name, i, r.case_name, r.variant, it->second));
    }
  }
}

CompareResult compare_reports(const RunReport& baseline, const RunReport& current,
                              const CompareOptions& options, const RunReport* aa_baseline) {
  check_options(options);
  check_unique_records(baseline, "baseline");
  check_unique_records(current, "current");
  const RecordIndex base_index = index_records(baseline);
  const RecordIndex cur_index = index_records(current);
  RecordIndex aa_index;
  if (aa_baseline != nullptr) {
    check_unique_records(*aa_baseline, "A/A baseline");
    aa_index = index_records(*aa_baseline);
  }

  CompareResult result;
  result.fail_on_missing = options.fail_on_missing;
  add_environment_warnings(baseline, current, options, result);
  for (const ResultRecord& base : baseline.records) {
    const ResultRecord* cur = find(cur_index, base.case_name, base.variant);
    if (cur == nullptr) {
      Comparison row =
          empty_row(base.case_name, base.variant, Verdict::kMissing, "in baseline only");
      row.baseline_median_us = median_of(base);
      result.rows.push_back(row);
      continue;
    }
    result.rows.push_back(
        compare_pair(base, *cur, base_index, cur_index, aa_baseline ? &aa_index : nullptr, options));
  }
  for (const ResultRecord& cur : current.records) {
    if (find(base_index, cur.case_name, cur.variant) != nullptr) continue;
    Comparison row = empty_row(cur.case_name, cur.variant, Verdict::kNew, "in current only");
    row.current_median_us = median_of(cur);
    result.rows.push_back(row);
  }
  return result;
}

}  // namespace graphbench
