// Bad input to the model workloads (torchscript, aoti): a bad spec is refused by the parser, a bad
// model file before any case runs (exit code 2), and a model that rejects its inputs fails its own
// case with the model's message while the run goes on (exit code 1).
#include "workloads/model_test_util.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/ops/aoti_package.h"
#include "graphbench/engine/runner/suite_runner.h"

#include <fmt/format.h>

#include <sstream>

namespace {

using namespace graphbench;
using namespace graphbench::testing;

std::string mlp_case(const std::string& extra) {
  return R"([{"name": "m", "workload": "torchscript", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}])" + extra + "}]";
}

}  // namespace

TEST_CASE("model spec: inputs, range, loss and tolerances are checked by the parser, with file and place") {
  ModelDir dir;
  const std::string file = (dir.path() / "suite.json").string();
  const auto inputs = [&](const std::string& list) {
    return load_error(dir, R"([{"name": "m", "workload": "torchscript", "path": "mlp.pt", "inputs": )" + list + "}]");
  };
  CHECK(inputs("[]") == file + ": /cases/0/inputs: expected a non-empty list of objects, got []");
  CHECK(inputs(R"([{"shap": [1]}])") ==
        file + ": /cases/0/inputs/0/shap: unknown key (expected one of: shape, dtype, range, batched, position, role, seed, scale)");
  CHECK(inputs(R"([{"dtype": "float32"}])") == file + ": /cases/0/inputs/0: missing required key \"shape\"");
  CHECK(inputs(R"([{"shape": [2, 0]}])") == file + ": /cases/0/inputs/0/shape/1: expected a positive integer, got 0");
  CHECK(inputs(R"([{"shape": [2], "dtype": "float64"}])") ==
        file + ": /cases/0/inputs/0/dtype: expected one of \"float32\", \"float16\", \"bfloat16\", \"int64\", got \"float64\"");
  CHECK(inputs(R"([{"shape": [2], "dtype": "int64"}])") ==
        file + ": /cases/0/inputs/0: missing required key \"range\" (int64 inputs draw their values from [lo, hi), e.g. "
               "[0, 30522) for token ids)");
  CHECK(inputs(R"([{"shape": [2], "range": [0, 5]}])") ==
        file + ": /cases/0/inputs/0/range: expected no range for a float32 input (int64 inputs only), got [0,5]");
  CHECK(inputs(R"([{"shape": [2], "dtype": "int64", "range": [5, 5]}])") ==
        file + ": /cases/0/inputs/0/range: expected [lo, hi) with lo < hi, got [5,5]");
  CHECK(inputs(R"([{"shape": [2], "dtype": "int64", "range": [1]}])") ==
        file + ": /cases/0/inputs/0/range: expected a list of 2 integers in [-1000000000000000, 1000000000000000], "
               "got [1]");
  CHECK(inputs(R"([{"shape": [2], "dtype": "int64", "range": [0, 1.5]}])") ==
        file + ": /cases/0/inputs/0/range/1: expected an integer in [-1000000000000000, 1000000000000000], got 1.5");

  CHECK(load_error(dir, mlp_case(R"(, "mode": "train")")) ==
        file + ": /cases/0: missing required key \"loss\" (mode train: mean, mse or cross_entropy)");
  CHECK(load_error(dir, mlp_case(R"(, "loss": "mse")")) ==
        file + ": /cases/0/loss: expected no loss in mode inference (a loss applies to mode train), got \"mse\"");
  CHECK(load_error(dir, mlp_case(R"(, "mode": "train", "loss": "hinge")")) ==
        file + ": /cases/0/loss: expected one of \"mean\", \"mse\", \"cross_entropy\", got \"hinge\"");
  CHECK(load_error(dir, mlp_case(R"(, "rtol": 2)")) == file + ": /cases/0/rtol: expected a number in [0, 1], got 2");
  CHECK(load_error(dir, R"([{"name": "m", "workload": "torchscript", "path": "", "inputs": [{"shape": [1]}]}])") ==
        file + ": /cases/0/path: expected a non-empty string, got \"\"");
  CHECK(load_error(dir, R"([{"name": "m", "workload": "torchscript", "inputs": [{"shape": [1]}]}])") ==
        file + ": /cases/0: missing required key \"path\" (a parameter of workload \"torchscript\")");
  CHECK(load_error(dir, R"([{"name": "a", "workload": "aoti", "mode": "eval", "path": "m.pt2",
                            "inputs": [{"shape": [1]}]}])") ==
        file + ": /cases/0/mode: expected one of \"inference\", \"train\", got \"eval\"");
  CHECK(load_error(dir, mlp_case(R"(, "rtol": 0.01, "atol": 0.001)")) == "(no error)");
}

TEST_CASE("model files: missing, corrupt, not TorchScript, no forward, wrong number of inputs: clear errors before anything runs") {
  ModelDir dir;
  const std::string suite = (dir.path() / "suite.json").string();
  const auto model = [&](const std::string& file, const std::string& inputs = R"([{"shape": [4, 5]}])") {
    return preflight_error(dir, R"([{"name": "mine", "workload": "torchscript", "path": ")" + file +
                                    R"(", "inputs": )" + inputs + "}]");
  };
  const std::string missing = (dir.path() / "nope.pt").string();
  CHECK(model("nope.pt") == suite + ": /cases/0/path: " + missing +
                                ": no such file (case mine; make model files with scripts/export_model.py, which "
                                "needs PyTorch: docs/models.md)");
  CHECK(model("corrupt.pt") == suite + ": /cases/0/path: " + dir.models().corrupt +
                                   ": not a zip archive, so not a TorchScript file (case mine): the file is damaged or "
                                   "of another kind");
  const std::string pickle = model("checkpoint.pt");
  CHECK_THAT(pickle, Catch::StartsWith(suite + ": /cases/0/path: " + dir.models().pickle +
                                       ": not a TorchScript file (case mine; torch::jit::load: "));
  CHECK_THAT(pickle, Catch::Contains("A torch.save() checkpoint is not TorchScript"));
  CHECK_THAT(pickle, !Catch::Contains("Exception raised from"));  // no C++ backtrace
  CHECK(model("no_forward.pt") == suite + ": /cases/0/path: " + dir.models().no_forward +
                                      ": the TorchScript module has no forward method (case mine)");
  CHECK(model("pair.pt") == suite + ": /cases/0/inputs: the model " + dir.models().pair +
                                " takes 2 input(s), forward(x: Tensor, y: Tensor); the case gives 1 (case mine)");
  std::filesystem::create_directory(dir.path() / "folder.pt");
  CHECK(model("folder.pt") == suite + ": /cases/0/path: " + (dir.path() / "folder.pt").string() +
                                  ": not a regular file (case mine; expected a TorchScript file)");
  CHECK(model("mlp.pt") == "(no error)");
  // aoti: the file checks come first, whatever the LibTorch.
  CHECK(preflight_error(dir, R"([{"name": "pkg", "workload": "aoti", "path": "nope.pt2", "inputs": [{"shape": [1]}]}])") ==
        suite + ": /cases/0/path: " + (dir.path() / "nope.pt2").string() +
            ": no such file (case pkg; make model files with scripts/export_model.py, which needs PyTorch: "
            "docs/models.md)");
}

TEST_CASE("suite: a bad model file ends the run before any case has run") {
  ModelDir dir;
  const SuiteSpec suite = dir.load(R"([
      {"name": "good", "workload": "torchscript", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}]},
      {"name": "bad", "workload": "torchscript", "path": "corrupt.pt", "inputs": [{"shape": [4, 5]}]}])");
  std::ostringstream log;
  CHECK_THROWS_AS(run_suite(suite, WorkloadRegistry::global(), CaseContext{}, Environment{}, &log), InputError);
  CHECK(log.str().empty());  // not even the first case started
}

TEST_CASE("suite: a model that rejects a shape, a dtype or a value fails its case with its own message, and the run goes on") {
  ModelDir dir;
  const SuiteSpec suite = dir.load(R"([
      {"name": "shape", "workload": "torchscript", "path": "mlp.pt", "inputs": [{"shape": [4, 6]}]},
      {"name": "dtype", "workload": "torchscript", "path": "tokens.pt", "inputs": [{"shape": [2, 7]}]},
      {"name": "value", "workload": "torchscript", "path": "tokens.pt",
       "inputs": [{"shape": [2, 7], "dtype": "int64", "range": [0, 1000]}]},
      {"name": "good", "workload": "torchscript", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}]}])");
  std::ostringstream log;
  const SuiteOutcome outcome = run_suite(suite, WorkloadRegistry::global(), CaseContext{}, Environment{}, &log);
  CHECK(outcome.exit_code() == kExitFailure);
  std::map<std::string, std::vector<const ResultRecord*>> by_case;
  for (const auto& r : outcome.report.records) by_case[r.case_name].push_back(&r);
  for (const char* name : {"shape", "dtype", "value"}) {
    CAPTURE(name);
    for (const ResultRecord* r : by_case.at(name)) {
      CHECK(r->status == RecordStatus::kFailed);
      CHECK_THAT(r->reason, Catch::StartsWith("setting up the case failed: model " +
                                              (std::string(name) == "shape" ? dir.models().mlp : dir.models().tokens) +
                                              " rejects the inputs "));
      CHECK_THAT(r->reason, !Catch::Contains("\n"));
    }
  }
  CHECK_THAT(by_case.at("shape").front()->reason,
             Catch::EndsWith("mat1 and mat2 shapes cannot be multiplied (4x6 and 5x8) (TorchScript: `return "
                             "torch.linear(x, self.weight, self.bias)`)"));
  CHECK_THAT(by_case.at("dtype").front()->reason, Catch::Contains("indices"));
  CHECK_THAT(by_case.at("value").front()->reason, Catch::Contains("index out of range"));
  for (const ResultRecord* r : by_case.at("good")) {
    INFO(r->variant << ": " << r->reason);
    CHECK(r->status != RecordStatus::kFailed);
  }
  CHECK_THAT(log.str(), Catch::Contains("[4/4] good"));
}

TEST_CASE("aoti: a case with pieces is refused by the parser, naming the field, in every build") {
  // A model in pieces is a torchscript case: the whole model its chain is checked against is TorchScript.
  ModelDir dir;
  const std::string file = (dir.path() / "suite.json").string();
  const std::string refusal =
      "the aoti workload runs a whole package; a model in pieces is a torchscript case (workload torchscript: "
      "scripts/export_model.py --scope ...; docs/scopes.md)";
  CHECK(load_error(dir, R"([{"name": "m", "workload": "aoti", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}],
       "pieces": [{"path": "mlp.piece0.pt", "inputs": ["input0"], "outputs": 1}],
       "piece_outputs": ["piece0.out0"]}])") == file + ": /cases/0/pieces: " + refusal);
  CHECK(load_error(dir, R"([{"name": "m", "workload": "aoti", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}],
       "piece_outputs": ["piece0.out0"]}])") == file + ": /cases/0/piece_outputs: " + refusal);
}

TEST_CASE("aoti: without a package loader every variant is skipped with the reason, with one a TorchScript file is refused") {
  ModelDir dir;
  const SuiteSpec suite = dir.load(R"([{"name": "pkg", "workload": "aoti", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}]}])");
  if (ops::aoti_supported()) {
    try {
      preflight_suite(suite, WorkloadRegistry::global());
      FAIL("a TorchScript file passed as an AOTInductor package");
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::Contains(": not an AOTInductor package (case pkg; "));
    }
    return;
  }
  preflight_suite(suite, WorkloadRegistry::global());  // the file is a zip: nothing more to check here
  const auto records = run_case(suite.cases.at(0));
  REQUIRE(records.size() == 2);
  for (const auto& r : records) {
    CHECK(r.status == RecordStatus::kSkipped);
    CHECK_THAT(r.reason, Catch::Contains("which has no AOTInductor package loader"));
  }
}
