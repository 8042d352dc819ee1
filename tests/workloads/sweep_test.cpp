// Sweeps of the real workloads (bench/common/sweep_axes): how each axis writes its value into a
// case, and a swept model case run through the suite runner on the CPU, a point the model rejects
// failing on its own while the others run.
#include "workloads/model_test_util.h"

#include "models/model_case.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/runner/suite_runner.h"
#include "graphbench/core/suite/sweep_fields.h"

#include "support/error_of.h"

namespace {

using namespace graphbench;
using namespace graphbench::testing;
using nlohmann::json;

SuiteSpec expanded(const ModelDir& dir, const std::string& cases) {
  SuiteSpec suite = dir.load(cases);
  expand_sweeps(suite, WorkloadRegistry::global().descriptors());
  return suite;
}

}  // namespace

TEST_CASE("sweep axes: batch of a model's batched inputs and its per-size file, a decoding step's position") {
  ModelDir dir;
  const SuiteSpec batch = expanded(dir, R"([{"name": "d", "workload": "aoti", "path": "step-b{batch}.pt2",
      "inputs": [{"shape": [1, 1], "dtype": "int64", "range": [0, 10]},
                 {"shape": [1], "dtype": "int64", "range": [5, 6], "position": true}],
      "sweep": {"batch": [4, 16]}}])");
  REQUIRE(batch.cases.size() == 2);
  const json& params = batch.cases[1].params;
  CHECK(batch.cases[1].name == "d[batch=16]");
  CHECK(params.at("inputs")[0].at("shape") == json::array({16, 1}));
  CHECK(params.at("inputs")[1].at("shape") == json::array({1}));  // the position is not batched
  CHECK(std::filesystem::path(params.at("path").get<std::string>()).filename() == "step-b16.pt2");

  const SuiteSpec position = expanded(dir, R"([{"name": "d", "workload": "aoti", "path": "step.pt2",
      "inputs": [{"shape": [8, 1], "dtype": "int64", "range": [0, 10]},
                 {"shape": [1], "dtype": "int64", "range": [5, 6], "position": true}],
      "sweep": {"pos": [128, 512]}}])");
  REQUIRE(position.cases.size() == 2);
  CHECK(position.cases[0].params.at("inputs")[1].at("range") == json::array({128, 129}));
  CHECK(position.cases[1].params.at("inputs")[1].at("range") == json::array({512, 513}));
  CHECK(position.cases[1].params.at("inputs")[0].at("shape") == json::array({8, 1}));

  CHECK(input_error_of([&] {
          expanded(dir, R"([{"name": "d", "workload": "aoti", "path": "step.pt2",
              "inputs": [{"shape": [8, 1], "dtype": "int64", "range": [0, 10]}], "sweep": {"pos": [1, 2]}}])");
        }).find("d at pos=1: /inputs: no input marked \"position\": true to sweep \"pos\" over") != std::string::npos);

  const SuiteSpec steps = expanded(dir, R"([{"name": "l", "workload": "linear_dropout", "mode": "train",
      "sweep": {"batch": [64, 256]}}, {"name": "g", "workload": "gelu", "shape": [1, 3, 8, 8], "sweep": {"batch": [2]}}])");
  REQUIRE(steps.cases.size() == 3);
  CHECK(steps.cases[1].params.at("batch") == 256);
  CHECK(steps.cases[2].params.at("shape") == json::array({2, 3, 8, 8}));
}

TEST_CASE("sweep axis cache: dimension 2 of every state input, refused without state or below the position") {
  ModelDir dir;
  const char* const step = R"([{"name": "d", "workload": "torchscript", "path": "step-c{cache}.pt",
      "inputs": [{"shape": [2, 1], "dtype": "int64", "range": [0, 10]},
                 {"shape": [1], "dtype": "int64", "range": [5, 6], "position": true},
                 {"shape": [2, 2, 32, 16], "role": "state", "seed": 3},
                 {"shape": [2, 2, 32, 16], "role": "state", "seed": 4}],
      "sweep": {"cache": [SIZES]}}])";
  const auto with_sizes = [&](const std::string& sizes) {
    std::string text = step;
    text.replace(text.find("SIZES"), 5, sizes);
    return text;
  };
  const SuiteSpec cache = expanded(dir, with_sizes("6, 64"));
  REQUIRE(cache.cases.size() == 2);
  CHECK(cache.cases[1].name == "d[cache=64]");
  const json& params = cache.cases[1].params;
  CHECK(params.at("inputs")[2].at("shape") == json::array({2, 2, 64, 16}));
  CHECK(params.at("inputs")[3].at("shape") == json::array({2, 2, 64, 16}));
  CHECK(params.at("inputs")[0].at("shape") == json::array({2, 1}));  // the tokens keep their shape
  CHECK(params.at("inputs")[1].at("range") == json::array({5, 6}));
  CHECK(params.at("inputs")[2].at("seed") == 3);
  CHECK(std::filesystem::path(params.at("path").get<std::string>()).filename() == "step-c64.pt");
  CHECK(cache.cases[0].params.at("inputs")[3].at("shape") == json::array({2, 2, 6, 16}));

  // The step writes at position 5: a cache of 5 positions cannot hold it.
  CHECK(input_error_of([&] { expanded(dir, with_sizes("5, 64")); })
            .find("d at cache=5: /inputs/1/range: a cache of 5 positions (/inputs/2) does not hold the step's "
                  "position 5 (its range [5,6])") != std::string::npos);
  // ... nor, swept over its position, a position past the cache.
  std::string by_position = with_sizes("64");
  by_position.replace(by_position.find("\"cache\": [64]"), 13, "\"pos\": [31, 32]");
  CHECK(input_error_of([&] { expanded(dir, by_position); })
            .find("d at pos=32: /inputs/1/range: a cache of 32 positions (/inputs/2) does not hold the step's "
                  "position 32 (its range [32,33])") != std::string::npos);
  CHECK(input_error_of([&] {
          expanded(dir, R"([{"name": "d", "workload": "aoti", "path": "step.pt2",
              "inputs": [{"shape": [8, 1], "dtype": "int64", "range": [0, 10]}], "sweep": {"cache": [64]}}])");
        }).find("d at cache=64: /inputs: no input with \"role\": \"state\" to sweep \"cache\" over") !=
        std::string::npos);
  CHECK(input_error_of([&] {
          expanded(dir, R"([{"name": "d", "workload": "aoti", "path": "step.pt2",
              "inputs": [{"shape": [8, 16], "role": "state"}], "sweep": {"cache": [64]}}])");
        }).find("/inputs/0/shape: expected a state input of at least three dimensions to sweep \"cache\" over") !=
        std::string::npos);
  // Not a model's axis elsewhere.
  CHECK(input_error_of([&] {
          expanded(dir, R"([{"name": "g", "workload": "gelu", "shape": [1, 3, 8, 8], "sweep": {"cache": [2]}}])");
        }).find("no axis \"cache\" to sweep (the axes of workload gelu: batch)") != std::string::npos);
}

TEST_CASE("a swept model case runs point by point, a size the model rejects failing alone") {
  ModelDir dir;
  // The MLP takes [N, 5] or a single row [5]: as a batched 1-D input, size 2 is refused by the
  // model, size 5 is one row of five features.
  const SuiteSpec suite = expanded(dir, R"([{"name": "m", "workload": "torchscript", "path": "mlp.pt",
      "variants": ["eager", "static"], "inputs": [{"shape": [5], "batched": true}], "sweep": {"batch": [2, 5]}}])");
  CaseContext context;
  context.device = at::kCPU;
  const SuiteOutcome outcome =
      run_suite(suite, WorkloadRegistry::global(), context, Environment{}, nullptr, nullptr);
  REQUIRE(outcome.report.records.size() == 4);
  const ResultRecord& refused = outcome.report.records[0];
  CHECK(refused.case_name == "m[batch=2]");
  CHECK(refused.status == RecordStatus::kFailed);
  const ResultRecord& ran = outcome.report.records[2];
  CHECK(ran.case_name == "m[batch=5]");
  CHECK(ran.status == RecordStatus::kOk);
  REQUIRE(ran.sweep);
  CHECK(ran.sweep->group == "m");
  CHECK(ran.sweep->axis == "batch");
  CHECK(ran.sweep->value == 5);
  CHECK(outcome.any_failed);
  CHECK(outcome.report.shared_pools.empty());  // no pool to share on the CPU
}

TEST_CASE("a package with a dynamic batch takes any batch, a fixed one only its own, a dynamic size up to its max") {
  const json dynamic = json::parse(R"([{"shape": [-1, 3, 224, 224], "dtype": "float32"}])");
  const json fixed = json::parse(R"([{"shape": [8, 3, 224, 224], "dtype": "float32"}])");
  const auto given = [](std::int64_t batch, const char* dtype) {
    return json::array({{{"shape", {batch, 3, 224, 224}}, {"dtype", dtype}}});
  };
  CHECK(bench::inputs_fit_recorded(dynamic, given(1, "float32")));
  CHECK(bench::inputs_fit_recorded(dynamic, given(256, "float32")));
  CHECK(bench::inputs_fit_recorded(fixed, given(8, "float32")));
  CHECK_FALSE(bench::inputs_fit_recorded(fixed, given(16, "float32")));
  CHECK_FALSE(bench::inputs_fit_recorded(dynamic, given(8, "float16")));
  CHECK_FALSE(bench::inputs_fit_recorded(dynamic, json::array({{{"shape", {8, 3, 224}}, {"dtype", "float32"}}})));
  CHECK_FALSE(bench::inputs_fit_recorded(dynamic, json::array()));

  // A dynamic KV cache's length (dimension 2) up to the recorded largest, 512, at batch up to 8.
  const json cache = json::parse(R"([{"shape": [-1, 2, -1, 16], "dtype": "float32", "max": [8, 2, 512, 16]}])");
  const auto cache_of = [](std::int64_t batch, std::int64_t length) {
    return json::array({{{"shape", {batch, 2, length, 16}}, {"dtype", "float32"}}});
  };
  CHECK(bench::inputs_fit_recorded(cache, cache_of(1, 64)));
  CHECK(bench::inputs_fit_recorded(cache, cache_of(8, 512)));
  CHECK_FALSE(bench::inputs_fit_recorded(cache, cache_of(8, 1024)));
  CHECK_FALSE(bench::inputs_fit_recorded(cache, cache_of(16, 64)));
  CHECK_FALSE(bench::inputs_fit_recorded(cache, json::array({{{"shape", {8, 4, 64, 16}}, {"dtype", "float32"}}})));
}
