// The verdict rule (see verdict_rule.h and the rule at the top of compare.h).
#include "graphbench/core/compare/verdict_rule.h"

#include "graphbench/core/stats/block_bootstrap.h"
#include "graphbench/core/stats/bootstrap.h"
#include "graphbench/core/stats/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace graphbench::compare_detail {

namespace {

Verdict verdict_for(const stats::Interval& ci, double threshold) {
  const double upper = 1.0 + threshold;
  const double lower = 1.0 / upper;
  if (ci.low > upper) return Verdict::kSlower;
  if (ci.high < lower) return Verdict::kFaster;
  if (ci.low >= lower && ci.high <= upper) return Verdict::kSame;
  return Verdict::kUnsure;
}

std::string threshold_note(const Comparison& row, double threshold_option) {
  if (!(row.threshold_used > threshold_option)) return "";
  const bool aa = std::isfinite(row.aa_noise) && row.aa_noise >= row.noise;
  return fmt::format("threshold raised to the {} {:.1f}%", aa ? "A/A run-to-run noise" : "noise",
                     row.threshold_used * 100.0);
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
  const std::string raised = threshold_note(row, threshold_option);
  if (!raised.empty()) note += (note.empty() ? "" : "; ") + raised;
  return note;
}

}  // namespace

Comparison empty_row(const std::string& case_name, const std::string& variant, const std::string& measure,
                     Verdict verdict, std::string note) {
  Comparison row;
  row.case_name = case_name;
  row.variant = variant;
  row.measure = measure;
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

namespace {

// The first set with fewer samples than --min-samples or than its run asked for, a current one
// first; null when none.
const SampleSet* short_set(const std::vector<SampleSet>& all, int min_samples) {
  const SampleSet* found = nullptr;
  for (const SampleSet& set : all) {
    if (set.samples->size() >= static_cast<std::size_t>(std::max(min_samples, set.asked))) continue;
    if (found == nullptr || (set.current() && !found->current())) found = &set;
  }
  return found;
}

// The product of the numerators' medians over the denominators'; NaN when a set is empty.
double ratio_of_medians(const std::vector<SampleSet>& numerators, const std::vector<SampleSet>& denominators) {
  double ratio = 1.0;
  for (const SampleSet& set : numerators) ratio *= set.samples->empty() ? kNaN : stats::percentile(*set.samples, 50.0);
  for (const SampleSet& set : denominators) ratio /= set.samples->empty() ? kNaN : stats::percentile(*set.samples, 50.0);
  return ratio;
}

}  // namespace

void measure(Comparison& row, const std::vector<SampleSet>& numerators, const std::vector<SampleSet>& denominators,
             const CompareOptions& options, double aa_noise, const CalibrationEntry* calibrated,
             const ProcessBasis* processes) {
  std::vector<SampleSet> all = numerators;
  all.insert(all.end(), denominators.begin(), denominators.end());
  double noise = 0.0;
  for (const SampleSet& set : all) {
    if (set.samples->empty()) continue;
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
      row.note = fmt::format("{} has no samples", set.label);
      return;
    }
  }
  // A figure from fewer samples than asked for has no interval: shown, never judged.
  if (const SampleSet* few = short_set(all, options.min_samples)) {
    row.ratio = ratio_of_medians(numerators, denominators);
    row.verdict = Verdict::kFewSamples;
    row.lost = few->current();
    row.note = few->samples->size() < static_cast<std::size_t>(options.min_samples)
                   ? fmt::format("{} has {} samples, fewer than --min-samples {}: no interval", few->label,
                                 few->samples->size(), options.min_samples)
                   : fmt::format("{} has {} samples, fewer than the {} its run asked for: no interval", few->label,
                                 few->samples->size(), few->asked);
    if (!few->current()) row.note += "; not a regression (record the baseline again)";
    return;
  }
  if (calibrated != nullptr) {
    measure_calibrated(row, ratio_of_medians(numerators, denominators), *calibrated);
    return;
  }
  const bool one_process = processes != nullptr;
  if (one_process && processes->baseline.size() >= static_cast<std::size_t>(kMinProcesses) &&
      processes->current.size() >= static_cast<std::size_t>(kMinProcesses)) {
    measure_processes(row, processes->baseline, processes->current);
    return;
  }
  // Each run's sets resampled together, in blocks of rounds (core/stats/block_bootstrap.h).
  stats::RunSamples current, baseline;
  for (const SampleSet& set : numerators) (set.current() ? current : baseline).numerators.push_back(set.samples);
  for (const SampleSet& set : denominators) (set.current() ? current : baseline).denominators.push_back(set.samples);
  std::vector<stats::RunSamples> runs;
  for (const stats::RunSamples* run : {&current, &baseline}) {
    if (!run->numerators.empty() || !run->denominators.empty()) runs.push_back(*run);
  }
  const stats::RatioEstimate estimate = stats::ratio_by_rounds(runs);
  row.ratio = estimate.ratio;
  row.ci95 = estimate.ci95;
  row.noise = noise;
  row.aa_noise = aa_noise;
  row.threshold_used = std::max(options.threshold, noise);
  if (std::isfinite(aa_noise)) row.threshold_used = std::max(row.threshold_used, aa_noise);
  if (one_process) row.threshold_used = std::max(row.threshold_used, processes->floor);
  row.verdict = verdict_for(row.ci95, row.threshold_used);
  row.note = describe(row, options.threshold);
  if (one_process) {
    // No process-level spread: a within-run interval beyond the plain threshold is not a verdict.
    const double plain = std::max(options.threshold, noise);
    if (row.verdict == Verdict::kSame && verdict_for(row.ci95, plain) != Verdict::kSame) row.verdict = Verdict::kUnsure;
    row.note = fmt::format("{}{}one process on a side, no process-level interval: within-run 95% CI {:.3f}-{:.3f}, "
                           "judged against the {:.0f}% floor of the row's kind",
                           row.verdict == Verdict::kSlower ? fmt::format("{:.2f}x slower; ", row.ratio) : "",
                           row.verdict == Verdict::kFaster ? fmt::format("{:.2f}x faster; ", 1.0 / row.ratio) : "",
                           row.ci95.low, row.ci95.high, processes->floor * 100.0);
  }
}

void judge_point_ratio(Comparison& row, double ratio, double noise_floor, double aa_noise,
                       const CompareOptions& options) {
  row.ratio = ratio;
  row.noise = noise_floor;
  row.aa_noise = aa_noise;
  row.threshold_used = options.threshold;
  if (std::isfinite(noise_floor)) row.threshold_used = std::max(row.threshold_used, noise_floor);
  if (std::isfinite(aa_noise)) row.threshold_used = std::max(row.threshold_used, aa_noise);
  if (!(ratio > 0.0) || !std::isfinite(ratio)) {
    row.verdict = Verdict::kUnsure;
    row.note = "no positive value on both sides: no ratio";
    return;
  }
  const double upper = 1.0 + row.threshold_used;
  row.verdict = ratio > upper ? Verdict::kSlower : ratio < 1.0 / upper ? Verdict::kFaster : Verdict::kSame;
  std::string note = "one value per run: the ratio itself is judged";
  if (row.verdict == Verdict::kSlower) note = fmt::format("{:.2f}x slower; {}", ratio, note);
  if (row.verdict == Verdict::kFaster) note = fmt::format("{:.2f}x faster; {}", 1.0 / ratio, note);
  const std::string raised = threshold_note(row, options.threshold);
  row.note = raised.empty() ? note : note + "; " + raised;
}

double relative_spread(double a, double b) {
  if (!(a > 0.0) || !(b > 0.0)) return kNaN;
  return std::max(a, b) / std::min(a, b) - 1.0;
}

}  // namespace graphbench::compare_detail
