#include "graphbench/core/compare/verdict_json.h"

#include "graphbench/core/report/json_or_null.h"


namespace graphbench {

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
