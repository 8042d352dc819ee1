// What `graphbench compare` writes: a Markdown table of every row, one line per regression and a
// summary line (render_comparison), and the verdicts as JSON (comparison_to_json).
#include "graphbench/core/compare/compare.h"

#include "graphbench/core/report/json_or_null.h"
#include "graphbench/core/report/markdown_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace graphbench {
namespace {

std::string number(double value, int decimals) {
  return std::isnan(value) ? "-" : fmt::format("{:.{}f}", value, decimals);
}

std::string interval(const stats::Interval& ci, int decimals) {
  if (std::isnan(ci.low) || std::isnan(ci.high)) return "-";
  return fmt::format("{:.{}f}-{:.{}f}", ci.low, decimals, ci.high, decimals);
}

std::string percent(double fraction) {
  return std::isnan(fraction) ? "-" : fmt::format("{:.1f}%", fraction * 100.0);
}

bool is_step_time(const Comparison& row) { return row.measure == kMeasureStepTime; }

// A row's value in its unit: microseconds per step, seconds of a whole run, an accuracy.
std::string value(const Comparison& row, double v) {
  if (row.measure == kMeasureAccuracy) return number(v, 4);
  if (row.measure == kMeasureTotalTime) return std::isnan(v) ? "-" : number(v, 2) + " s";
  return number(v, 2);
}

std::string regression_line(const Comparison& row, const CompareOptions& options) {
  // Names stay on one line whatever they hold: the REGRESSION lines are read by scripts.
  const std::string name = markdown_cell(row.case_name + "/" + row.variant);
  const std::string what = is_step_time(row) ? "" : " " + row.measure;
  switch (row.verdict) {
    case Verdict::kSlower:
      return fmt::format("REGRESSION: {}{} is {:.2f}x slower{} ({}threshold {})", name, what, row.ratio,
                         options.metric == CompareOptions::Metric::kSpeedup ? " relative to eager" : "",
                         std::isnan(row.ci95.low) ? "" : "95% CI " + interval(row.ci95, 2) + ", ",
                         percent(row.threshold_used));
    case Verdict::kFailed: return fmt::format("REGRESSION: {} {}", name, markdown_cell(row.note));
    case Verdict::kChanged: return fmt::format("REGRESSION: {} counts {} (--fail-on-counts)", name, markdown_cell(row.note));
    case Verdict::kLessAccurate:
      return fmt::format("REGRESSION: {} final test accuracy {}", name, markdown_cell(row.note));
    case Verdict::kMissing:
      return fmt::format("REGRESSION: {} is missing from current (ok in the baseline; --allow-missing lets it pass)",
                         name);
    case Verdict::kSkipped:
      return fmt::format("REGRESSION: {} was {} (--allow-missing lets it pass)", name, markdown_cell(row.note));
    case Verdict::kFewSamples:
      return fmt::format("REGRESSION: {} has too few samples in current to compare ({}; --allow-missing lets it pass)",
                         name, markdown_cell(row.note));
    default: return fmt::format("REGRESSION: {} ({})", name, to_string(row.verdict));
  }
}

std::string metric_line(const CompareOptions& options) {
  if (options.metric == CompareOptions::Metric::kSpeedup) {
    return "Metric speedup: ratio = (current variant / current eager) / (baseline variant / "
           "baseline eager), medians of samples_us (training: also of total times); above 1 is slower.";
  }
  return "Metric time: ratio = current median / baseline median of samples_us (training: also of total "
         "times); above 1 is slower.";
}

std::string summary_line(const CompareResult& result) {
  std::map<Verdict, int> counts;
  for (const Comparison& row : result.rows) ++counts[row.verdict];
  std::string text = fmt::format("{} rows:", result.rows.size());
  const Verdict order[] = {Verdict::kSlower,  Verdict::kFaster,     Verdict::kSame,         Verdict::kUnsure,
                           Verdict::kFewSamples, Verdict::kFailed, Verdict::kLessAccurate, Verdict::kSkipped,
                           Verdict::kMissing, Verdict::kNew,        Verdict::kNotCompared, Verdict::kChanged};
  const char* separator = " ";
  for (Verdict v : order) {
    text += fmt::format("{}{} {}", separator, counts[v], to_string(v));
    separator = ", ";
  }
  if (result.allow_missing) {
    const auto lost = std::count_if(result.rows.begin(), result.rows.end(), [](const Comparison& r) { return r.lost; });
    if (lost > 0) {
      text += fmt::format(". {} record{} ok in the baseline lost by current, let pass by --allow-missing", lost,
                          lost == 1 ? "" : "s");
    }
  }
  const std::size_t regressions = result.regressions().size();
  if (regressions == 0) return text + ". No regression (exit 0).";
  return text +
         fmt::format(". {} regression{} (exit 1).", regressions, regressions == 1 ? "" : "s");
}

}  // namespace

std::string render_comparison(const CompareResult& result, const CompareOptions& options) {
  std::string out;
  for (const std::string& warning : result.warnings) out += "warning: " + markdown_cell(warning) + "\n";
  if (!result.warnings.empty()) out += "\n";
  out += metric_line(options) + "\n";
  out += "Step times and device times are in us per step, total times in seconds; test accuracy is the final "
         "epoch's; counts (kernels, copies, launches, graphs, nodes, pool bytes) are compared exactly.\n\n";
  out += "| case | variant | measure | baseline | current | ratio | 95% CI | threshold | verdict | rule | note |\n";
  out += "|---|---|---|---:|---:|---:|---|---:|---|---|---|\n";
  for (const Comparison& row : result.rows) {
    const bool accuracy = row.measure == kMeasureAccuracy;
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_cell(row.case_name),
                       markdown_cell(row.variant), row.measure, value(row, row.baseline_median_us),
                       value(row, row.current_median_us), number(row.ratio, 3), interval(row.ci95, 3),
                       accuracy ? number(row.threshold_used, 4) : percent(row.threshold_used), to_string(row.verdict),
                       row.rule.empty() ? "-" : markdown_cell(row.rule), markdown_cell(row.note));
  }
  out += "\n";
  for (const Comparison* row : result.regressions()) out += regression_line(*row, options) + "\n";
  out += summary_line(result) + "\n";
  return out;
}

using nlohmann::json;

json comparison_to_json(const CompareResult& result, const CompareOptions& options, const CompareSources& sources) {
  json rows = json::array();
  for (const Comparison& c : result.rows) {
    rows.push_back({{"case", c.case_name},
                    {"variant", c.variant},
                    {"measure", c.measure},
                    {"verdict", to_string(c.verdict)},
                    {"regression", result.is_regression(c)},
                    {"ratio", number_or_null(c.ratio)},
                    {"ratio_ci95", json::array({number_or_null(c.ci95.low), number_or_null(c.ci95.high)})},
                    {"threshold", number_or_null(c.threshold_used)},
                    {"noise", number_or_null(c.noise)},
                    {"aa_noise", number_or_null(c.aa_noise)},
                    {"p_value", number_or_null(c.p_value)},  // calibrated rows (--calibration) only
                    {"calibration_runs", c.calibration_runs},
                    {"detectable_slowdown", number_or_null(c.detectable_slowdown)},  // calibrated rows only
                    {"baseline", number_or_null(c.baseline_median_us)},
                    {"current", number_or_null(c.current_median_us)},
                    {"rule", c.rule},
                    {"row_kind", c.row_kind},  // step-time rows judged by their kind's floor; "" elsewhere
                    {"floor", number_or_null(c.floor)},
                    {"note", c.note}});
  }
  json files = {{"baseline", sources.baseline}, {"current", sources.current}};
  if (!sources.aa_baseline.empty()) files["aa_baseline"] = sources.aa_baseline;
  return {{"files", files},
          {"options",
           {{"metric", to_string(options.metric)},
            {"threshold", options.threshold},
            {"min_samples", options.min_samples},
            {"allow_missing", options.allow_missing},
            {"fail_on_counts", options.fail_on_counts},
            {"accuracy_tolerance", options.accuracy_tolerance}}},
          {"exit_code", result.exit_code()},
          {"regressions", result.regressions().size()},
          {"warnings", result.warnings},
          {"rows", rows}};
}

}  // namespace graphbench
