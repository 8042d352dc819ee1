// `graphbench compare` with run folders and --json (results_file_of and comparison_to_json, core/compare/compare.h):
// a folder stands for its results.json, and the verdicts as JSON hold every row, null for
// figures that do not apply.
#include "support/catch.h"
#include "support/error_of.h"
#include "support/scratch_dir.h"

#include "graphbench/core/compare/compare.h"

#include <cmath>
#include <fstream>

namespace {

using namespace graphbench;

CompareResult two_rows() {
  CompareResult result;
  Comparison slower;
  slower.case_name = "gelu-small";
  slower.variant = "graph";
  slower.verdict = Verdict::kSlower;
  slower.ratio = 1.5;
  slower.ci95 = {1.4, 1.6};
  slower.threshold_used = 0.05;
  slower.noise = 0.01;
  slower.aa_noise = NAN;
  slower.baseline_median_us = 10.0;
  slower.current_median_us = 15.0;
  slower.note = "slower";
  Comparison missing;
  missing.case_name = "gelu-large";
  missing.variant = "eager";
  missing.verdict = Verdict::kMissing;
  missing.ratio = NAN;
  missing.ci95 = {NAN, NAN};
  missing.baseline_median_us = 100.0;
  missing.current_median_us = NAN;
  result.rows = {slower, missing};
  result.warnings = {"the two runs used different GPUs"};
  return result;
}

}  // namespace

TEST_CASE("compare --json: every row with its verdict, regression and figures, null where none applies", "[compare]") {
  CompareOptions options;
  const nlohmann::json j = comparison_to_json(two_rows(), options, CompareSources{"a/results.json", "b/results.json", ""});
  CHECK(j.at("files") == nlohmann::json{{"baseline", "a/results.json"}, {"current", "b/results.json"}});
  CHECK(j.at("exit_code") == 1);
  CHECK(j.at("regressions") == 1);
  CHECK(j.at("options").at("metric") == "time");
  CHECK(j.at("warnings") == nlohmann::json::array({"the two runs used different GPUs"}));
  REQUIRE(j.at("rows").size() == 2);
  const auto& slower = j.at("rows")[0];
  CHECK(slower.at("case") == "gelu-small");
  CHECK(slower.at("verdict") == "SLOWER");
  CHECK(slower.at("regression") == true);
  CHECK(slower.at("ratio") == 1.5);
  CHECK(slower.at("ratio_ci95") == nlohmann::json::array({1.4, 1.6}));
  CHECK(slower.at("aa_noise").is_null());
  CHECK(slower.at("baseline") == 10.0);
  CHECK(slower.at("current") == 15.0);
  const auto& missing = j.at("rows")[1];
  CHECK(missing.at("verdict") == "MISSING");
  CHECK(missing.at("regression") == false);  // not without --fail-on-missing
  CHECK(missing.at("ratio").is_null());
  CHECK(missing.at("ratio_ci95") == nlohmann::json::array({nullptr, nullptr}));
}

TEST_CASE("compare: a run's output folder stands for its results.json", "[compare]") {
  const graphbench::testing::ScratchDir dir("graphbench-compare-json");
  const std::string folder = dir.path().string();
  CHECK(testing::input_error_of([&] { results_file_of(folder); }) ==
        folder + ": a folder without results.json (give a run's output folder, -o DIR, or its results.json)");
  std::ofstream(dir.path() / "results.json") << "{}";
  CHECK(results_file_of(folder) == (dir.path() / "results.json").string());
  CHECK(results_file_of(folder + "/results.json") == folder + "/results.json");
  CHECK(results_file_of("no/such/file.json") == "no/such/file.json");  // the reader names it
}
