// A training step's AOTInductor package as the aoti workload reads it (bench/models/training_package.h):
// the package's record of its state and target, and the initial state from the case's `state` file,
// each checked, with errors that name the suite file, the case, the field and the file. The spec
// rules of mode train (a state file required, and only there) are the parser's. These run on every
// build: none needs the package loader.
#include "workloads/model_test_util.h"

#include "models/training_package.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/runner/suite_runner.h"

#include <torch/script.h>

namespace {

using namespace graphbench;
using namespace graphbench::testing;

const char* const kRecord = R"({"state": [
    {"name": "fc.weight", "role": "param", "shape": [3, 5], "dtype": "float32"},
    {"name": "bn.num_batches_tracked", "role": "buffer", "shape": [], "dtype": "int64"},
    {"name": "fc.weight.momentum_buffer", "role": "optimizer", "shape": [3, 5], "dtype": "float32"}],
  "target": {"shape": [4], "dtype": "int64", "range": [0, 3]}, "state_updates": "in_place",
  "loss": "cross_entropy", "optimizer": "sgd", "lr": 0.01, "momentum": 0.9, "weight_decay": 0.0})";

// A state file as scripts/train_step.py writes it: buffers s0, s1, ... in the package's order.
std::string write_state(const ModelDir& dir, const std::vector<at::Tensor>& tensors, const char* name = "step.state.pt") {
  torch::jit::Module module("State");
  for (std::size_t i = 0; i < tensors.size(); ++i) module.register_buffer("s" + std::to_string(i), tensors[i]);
  const std::string file = (dir.path() / name).string();
  module.save(file);
  return file;
}

std::vector<at::Tensor> good_state() {
  return {at::randn({3, 5}), at::zeros({}, at::kLong), at::zeros({3, 5})};
}

CaseSpec train_case(const ModelDir& dir, const std::string& state = "step.state.pt") {
  return dir.load(R"([{"name": "step", "workload": "aoti", "mode": "train", "path": "mlp.pt", "state": ")" + state +
                  R"(", "inputs": [{"shape": [4, 5]}]}])")
      .cases.at(0);
}

std::string record_error(const CaseSpec& spec, const std::string& record) {
  try {
    bench::read_training_step(spec, "step.pt2", {{bench::kTrainingMetadataKey, record}});
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string state_error(const CaseSpec& spec) {
  try {
    bench::load_initial_state(spec, bench::read_training_step(spec, "step.pt2", {{bench::kTrainingMetadataKey, kRecord}}),
                              at::kCPU);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("aoti train: the package's record of its state and target is read in order, with roles") {
  ModelDir dir;
  const CaseSpec spec = train_case(dir);
  CHECK_FALSE(bench::records_training_step({{"AOTI_DEVICE_KEY", "cuda"}}));
  CHECK(bench::records_training_step({{bench::kTrainingMetadataKey, kRecord}}));
  const bench::TrainingStep step = bench::read_training_step(spec, "step.pt2", {{bench::kTrainingMetadataKey, kRecord}});
  REQUIRE(step.state.size() == 3);
  CHECK(step.state[0].name == "fc.weight");
  CHECK(step.state[0].role == "param");
  CHECK(step.state[0].shape == std::vector<std::int64_t>{3, 5});
  CHECK(step.state[1].role == "buffer");
  CHECK(step.state[1].dtype == at::kLong);
  CHECK(step.state[1].shape.empty());
  CHECK(step.state[2].role == "optimizer");
  REQUIRE(step.target.has_value());
  CHECK(step.target->shape == std::vector<std::int64_t>{4});
  CHECK(step.target->dtype == at::kLong);
  CHECK(step.target->low == 0);
  CHECK(step.target->high == 3);
  CHECK_FALSE(step.state_returned);
  CHECK(step.summary == "loss cross_entropy, sgd (lr 0.01, momentum 0.9)");
}

TEST_CASE("aoti train: a malformed record is refused, naming the package, the key and the fault") {
  ModelDir dir;
  const CaseSpec spec = train_case(dir);
  const std::string prefix = spec.suite_path + ": /cases/0/path: step.pt2: the package's graphbench_train metadata ";
  const std::string suffix = " (case step; export the step again with scripts/export_model.py --mode train --format pt2)";
  CHECK(record_error(spec, "not json") == prefix + "is not a JSON object" + suffix);
  CHECK(record_error(spec, R"({"state": []})") == prefix + "lists no state" + suffix);
  CHECK(record_error(spec, R"({"state": [{"name": "w", "role": "param", "shape": [2]}]})") ==
        prefix + "has state entry 0 without a shape and a dtype: {\"name\":\"w\",\"role\":\"param\",\"shape\":[2]}" + suffix);
  CHECK(record_error(spec, R"({"state": [{"name": "w", "role": "weights", "shape": [2], "dtype": "float32"}]})") ==
        prefix + "gives state entry 0 the role \"weights\" (expected param, buffer or optimizer)" + suffix);
  CHECK(record_error(spec, R"({"state": [{"name": "w", "role": "param", "shape": [-2], "dtype": "float32"}]})") ==
        prefix + "has state entry 0 with the shape [-2]" + suffix);
  CHECK(record_error(spec, R"({"state": [{"name": "w", "role": "param", "shape": [2], "dtype": "complex7"}]})") ==
        prefix + "has state entry 0 of the unknown dtype \"complex7\"" + suffix);
  CHECK(record_error(spec, R"({"state": [{"name": "w", "role": "param", "shape": [2], "dtype": "float32"}],
                               "target": {"shape": [2], "dtype": "int64"}})") ==
        prefix + "has an int64 target without its range [lo, hi)" + suffix);
  CHECK(record_error(spec, R"({"state": [{"name": "w", "role": "param", "shape": [2], "dtype": "float32"}],
                               "state_updates": "sometimes"})") ==
        prefix + "says its state is updated \"sometimes\" (expected in_place or returned)" + suffix);
  // A step that returns its state, with loss mean (no target).
  const bench::TrainingStep returned = bench::read_training_step(
      spec, "step.pt2",
      {{bench::kTrainingMetadataKey, R"({"state": [{"name": "w", "role": "param", "shape": [2], "dtype": "float32"}],
                                         "target": null, "state_updates": "returned", "loss": "mean",
                                         "optimizer": "adam", "lr": 0.001})"}});
  CHECK(returned.state_returned);
  CHECK_FALSE(returned.target.has_value());
  CHECK(returned.summary == "loss mean, adam (lr 0.001)");
}

TEST_CASE("aoti train: the initial state is read from the state file and checked entry by entry") {
  ModelDir dir;
  const std::vector<at::Tensor> written = good_state();
  const std::string file = write_state(dir, written);
  const CaseSpec spec = train_case(dir);
  const bench::TrainingStep step = bench::read_training_step(spec, "step.pt2", {{bench::kTrainingMetadataKey, kRecord}});
  const std::vector<at::Tensor> state = bench::load_initial_state(spec, step, at::kCPU);
  REQUIRE(state.size() == 3);
  for (std::size_t i = 0; i < state.size(); ++i) CHECK(at::equal(state[i], written[i]));

  const std::string prefix = spec.suite_path + ": /cases/0/state: " + file + ": ";
  write_state(dir, {at::randn({3, 5}), at::zeros({}, at::kLong), at::zeros({5, 3})});
  CHECK(state_error(spec) == prefix + "s2 is float32[5, 3], the package's fc.weight.momentum_buffer (optimizer) is "
                                      "float32[3, 5] (case step): not the state written beside this package");
  write_state(dir, {at::randn({3, 5}), at::zeros({}, at::kFloat), at::zeros({3, 5})});
  CHECK(state_error(spec) == prefix + "s1 is float32[], the package's bn.num_batches_tracked (buffer) is int64[] "
                                      "(case step): not the state written beside this package");
  write_state(dir, {at::randn({3, 5}), at::zeros({}, at::kLong)});
  CHECK(state_error(spec) == prefix + "has no tensor s2 (fc.weight.momentum_buffer, the package's state entry 2 of 3) "
                                      "(case step): not the state written beside this package");
  write_state(dir, {at::randn({3, 5}), at::zeros({}, at::kLong), at::zeros({3, 5}), at::zeros({1})});
  CHECK(state_error(spec) == prefix + "holds more tensors than the package's 3 state entries (case step): not the "
                                      "state written beside this package");
  // Strides: where the record gives none, contiguous.
  write_state(dir, {at::randn({5, 3}).t(), at::zeros({}, at::kLong), at::zeros({3, 5})});
  CHECK(state_error(spec) == prefix + "s0 has the strides [1, 3], the package's fc.weight was compiled for [5, 1] "
                                      "(case step): not the state written beside this package");
  const CaseSpec not_script = train_case(dir, "corrupt.pt");
  CHECK_THAT(state_error(not_script),
             Catch::StartsWith(spec.suite_path + ": /cases/0/state: " + dir.models().corrupt + ": not a zip archive"));
}

TEST_CASE("aoti train: a channels-last weight keeps the strides the package was compiled for") {
  ModelDir dir;
  const at::Tensor weight = at::randn({2, 3, 4, 4}).contiguous(at::MemoryFormat::ChannelsLast);
  write_state(dir, {weight});
  const CaseSpec spec = train_case(dir);
  const auto record = [](const std::string& strides) {
    return std::map<std::string, std::string>{
        {bench::kTrainingMetadataKey, R"({"state": [{"name": "conv.weight", "role": "param", "shape": [2, 3, 4, 4],
                                          "stride": )" + strides + R"(, "dtype": "float32"}]})"}};
  };
  const std::vector<at::Tensor> state =
      bench::load_initial_state(spec, bench::read_training_step(spec, "step.pt2", record("[48, 1, 12, 3]")), at::kCPU);
  REQUIRE(state.size() == 1);
  CHECK(state[0].strides().vec() == std::vector<std::int64_t>{48, 1, 12, 3});
  CHECK(at::equal(state[0], weight));
  try {
    bench::load_initial_state(spec, bench::read_training_step(spec, "step.pt2", record("[48, 16, 4, 1]")), at::kCPU);
    FAIL("a channels-last weight passed for a contiguous one");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::EndsWith("s0 has the strides [48, 1, 12, 3], the package's conv.weight was compiled "
                                         "for [48, 16, 4, 1] (case step): not the state written beside this package"));
  }
  CHECK(record_error(spec, record("[1, 2]").begin()->second) ==
        spec.suite_path + ": /cases/0/path: step.pt2: the package's graphbench_train metadata has state entry 0 with the "
                          "strides [1,2] for the shape [2,3,4,4] (case step; export the step again with "
                          "scripts/export_model.py --mode train --format pt2)");
}

TEST_CASE("aoti train: mode train needs a state file and only mode train takes one, a missing one named before anything runs") {
  ModelDir dir;
  const std::string suite = (dir.path() / "suite.json").string();
  const auto error_of_load = [&](const std::string& cases) {
    try {
      dir.load(cases);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(error_of_load(R"([{"name": "a", "workload": "aoti", "mode": "train", "path": "m.pt2", "inputs": [{"shape": [1]}]}])") ==
        suite + ": /cases/0: missing required key \"state\" (mode train: the training step's initial state, the "
                "<stem>.state.pt written beside the package by scripts/export_model.py --mode train)");
  CHECK(error_of_load(R"([{"name": "a", "workload": "aoti", "path": "m.pt2", "state": "m.state.pt",
                          "inputs": [{"shape": [1]}]}])") ==
        suite + ": /cases/0/state: expected no state in mode inference (a state file belongs to a training step's "
                "package, mode train), got \"" + (dir.path() / "m.state.pt").string() + "\"");
  const SuiteSpec missing = dir.load(R"([{"name": "a", "workload": "aoti", "mode": "train", "path": "mlp.pt",
                                         "state": "nope.state.pt", "inputs": [{"shape": [4, 5]}]}])");
  // The files are checked before the package's metadata is read, whatever the LibTorch.
  try {
    preflight_suite(missing, WorkloadRegistry::global());
    FAIL("a missing state file passed the preflight");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          suite + ": /cases/0/state: " + (dir.path() / "nope.state.pt").string() +
              ": no such file (case a; make model files with scripts/export_model.py, which needs PyTorch: "
              "docs/models.md)");
  }
}
