// Workload aoti with a model in pieces (scripts/export_model.py --scope --format pt2): the parser
// checks the wiring as the torchscript workload's (the same rules, the messages naming the field),
// refuses pieces in mode train and with state inputs, and the preflight names a missing piece file,
// in every build. In a build without the package loader (LibTorch before 2.6) every variant of such
// a case is skipped with the loader's reason, neither failed nor passed.
#include "workloads/model_test_util.h"

#include "models/script_pieces.h"

#include "graphbench/ops/aoti_package.h"
#include "graphbench/runner/suite_runner.h"

#include <fmt/format.h>

namespace {

using namespace graphbench;
using namespace graphbench::testing;

// The mlp in two pieces, a layer each (the test models: TorchScript pieces, which an aoti case runs
// as such); `extra` is added to the case.
std::string aoti_pieces_case(const std::string& first_input, const std::string& second_path = "mlp.piece1.pt",
                        const std::string& extra = "") {
  return fmt::format(R"([{{"name": "m", "workload": "aoti", "path": "mlp.pt", "inputs": [{{"shape": [4, 5]}}],
       "pieces": [{{"path": "mlp.piece0.pt", "inputs": ["{}"], "outputs": 1, "module": "fc1", "layer": 0}},
                  {{"path": "{}", "inputs": ["piece0.out0"], "outputs": 1, "module": "fc2", "layer": 1}}],
       "piece_outputs": ["piece1.out0"]{}}}])",
                     first_input, second_path, extra);
}

}  // namespace

TEST_CASE("aoti pieces: the wiring is checked by the parser as the torchscript workload's, naming the field",
          "[workloads][scope]") {
  ModelDir dir;
  const std::string file = (dir.path() / "suite.json").string();
  CHECK(load_error(dir, aoti_pieces_case("input0")) == "(no error)");
  CHECK(load_error(dir, aoti_pieces_case("piece1.out0")) ==
        file + ": /cases/0/pieces/0/inputs/0: \"piece1.out0\" names piece 1, which does not run before piece 0 "
               "(pieces run in the order given: a wiring to a later piece, or to itself, is a cycle)");
  CHECK(load_error(dir, aoti_pieces_case("input1")) ==
        file + ": /cases/0/pieces/0/inputs/0: \"input1\" names model input 1, and the case's inputs are 1 (input0 to "
               "input0)");
  CHECK(load_error(dir, aoti_pieces_case("x0")) ==
        file + ": /cases/0/pieces/0/inputs/0: expected a model input (\"input0\" to \"input0\") or an earlier piece's "
               "output (\"pieceJ.outN\"), got \"x0\"");
  CHECK(load_error(dir, R"([{"name": "m", "workload": "aoti", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}],
       "pieces": [{"path": "mlp.piece0.pt", "inputs": ["input0"], "outputs": 1}]}])") ==
        file + ": /cases/0: missing required key \"piece_outputs\" (with pieces: the model's outputs)");
  CHECK(load_error(dir, R"([{"name": "m", "workload": "aoti", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}],
       "pieces": [{"path": "mlp.piece0.pt", "inputs": ["input0"], "outputs": 1}],
       "piece_outputs": ["piece0.out1"]}])") ==
        file + ": /cases/0/piece_outputs/0: \"piece0.out1\" names output 1 of piece 0, which has 1 (out0 to out0)");
}

TEST_CASE("aoti pieces: refused in mode train and with state inputs, naming the field", "[workloads][scope]") {
  ModelDir dir;
  const std::string file = (dir.path() / "suite.json").string();
  CHECK(load_error(dir, aoti_pieces_case("input0", "mlp.piece1.pt", R"(, "mode": "train", "state": "mlp.state.pt")")) ==
        file + ": /cases/0/pieces: expected no pieces in mode train (AOTInductor pieces are inference; a training "
               "step over pieces is a torchscript case: scripts/export_model.py --mode train --scope ... --format pt)");
  CHECK(load_error(dir, R"([{"name": "m", "workload": "aoti", "path": "mlp.pt",
       "inputs": [{"shape": [4, 5]}, {"shape": [4, 5], "role": "state"}],
       "pieces": [{"path": "mlp.piece0.pt", "inputs": ["input0"], "outputs": 1}],
       "piece_outputs": ["piece0.out0"]}])") ==
        file + ": /cases/0/inputs/1/role: expected no role state in a chain of pieces (a state input goes with "
               "inference of one whole model, such as a decoding step)");
}

TEST_CASE("aoti pieces: a missing piece file is named before anything runs, in every build", "[workloads][scope]") {
  ModelDir dir;
  const std::string file = (dir.path() / "suite.json").string();
  CHECK(preflight_error(dir, aoti_pieces_case("input0", "mlp.piece9.pt2")) ==
        file + ": /cases/0/pieces/1/path: " + (dir.path() / "mlp.piece9.pt2").string() +
            ": no such file (case m; scripts/export_model.py --scope writes the pieces beside the whole model)");
}

TEST_CASE("aoti pieces: without a package loader every variant is skipped with the loader's reason",
          "[workloads][scope]") {
  ModelDir dir;
  const SuiteSpec suite = dir.load(aoti_pieces_case("input0"));
  if (ops::aoti_supported()) {
    // With the loader the whole model must be a package: the test mlp (TorchScript) is refused.
    try {
      preflight_suite(suite, WorkloadRegistry::global());
      FAIL("a TorchScript file passed as the whole model's AOTInductor package");
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::Contains(": not an AOTInductor package (case m; "));
    }
    return;
  }
  preflight_suite(suite, WorkloadRegistry::global());  // every file is there
  const auto records = run_case(suite.cases.at(0));
  REQUIRE(records.size() == 2);
  for (const auto& r : records) {
    INFO(r.variant << ": " << r.reason);
    CHECK(r.status == RecordStatus::kSkipped);
    CHECK_THAT(r.reason, Catch::Contains(ops::aoti_unsupported_reason()));
    CHECK_THAT(r.reason, Catch::Contains("which has no AOTInductor package loader"));
  }
}

TEST_CASE("pieces: the chain runs whatever calls each piece, and names the piece that rejects its inputs or returns "
          "another number of tensors",
          "[workloads][scope]") {
  ModelDir dir;
  const std::string file = (dir.path() / "suite.json").string();
  const SuiteSpec suite = dir.load(aoti_pieces_case("input0"));
  const CaseSpec& spec = suite.cases.at(0);
  const bench::ScriptPieces pieces = bench::read_pieces(spec);
  const bench::PieceCall twice = [](const std::vector<at::Tensor>& in) { return std::vector<at::Tensor>{in.at(0) * 2}; };
  const bench::PieceCall plus_one = [](const std::vector<at::Tensor>& in) {
    return std::vector<at::Tensor>{in.at(0) + 1};
  };
  const at::Tensor x = at::arange(20, at::kFloat).reshape({4, 5});
  const bench::ChainRun run = bench::run_chain(spec, pieces, {twice, plus_one}, {x});
  REQUIRE(run.piece_inputs.size() == 2);
  CHECK(run.piece_inputs[0].at(0).equal(x));
  CHECK(run.piece_inputs[1].at(0).equal(x * 2));
  REQUIRE(run.outputs.size() == 1);
  CHECK(run.outputs[0].equal(x * 2 + 1));

  const bench::PieceCall refuses = [](const std::vector<at::Tensor>&) -> std::vector<at::Tensor> {
    throw InputError("the package was compiled for the inputs [{\"shape\": [4, 6]}]");
  };
  const bench::PieceCall two = [](const std::vector<at::Tensor>& in) { return std::vector<at::Tensor>{in[0], in[0]}; };
  const auto error_of = [&](const std::vector<bench::PieceCall>& calls) {
    try {
      bench::run_chain(spec, pieces, calls, {x});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const std::string piece1 = (dir.path() / "mlp.piece1.pt").string();
  CHECK(error_of({twice, refuses}) ==
        file + ": /cases/0/pieces/1/inputs: piece 1 (" + piece1 + ") rejects its inputs float32[4, 5] on cpu (case m): "
               "the package was compiled for the inputs [{\"shape\": [4, 6]}]");
  CHECK(error_of({twice, two}) ==
        file + ": /cases/0/pieces/1/outputs: piece 1 (" + piece1 + ") returns 2 tensor(s), the case says 1 (case m)");
}
