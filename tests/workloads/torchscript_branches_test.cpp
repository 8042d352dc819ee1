// Workload torchscript_branches (bench/torchscript_branches.cpp, bench/models/branch_tree.h): a model
// split at a branch of its own forward, as scripts/export_model.py --scope auto writes it, with two
// TorchScript pieces made here. On the CPU: eager follows each outcome (the case's threshold forcing
// then and else) and leaves that leaf's outputs and index; graph and conditional are skipped with
// their reason; a bad tree is refused naming the field. On the GPU ([cuda]; skipped without one):
// graph and conditional match eager on both outcomes.
#include "workloads/model_test_util.h"

#include "support/cuda_skip.h"

#include <fmt/format.h>
#include <torch/script.h>

#include <algorithm>

namespace {

using namespace graphbench;
using namespace graphbench::testing;

// piece0: h = 2x, returns (h, mean(h), h + 1); piece1: returns 3h - 1. The branch: mean(h) > than,
// then the step ends with h + 1, else piece1 runs and the step ends with its output.
void write_pieces(const std::filesystem::path& dir) {
  torch::jit::Module first("BranchPiece0");
  first.define("def forward(self, x):\n    h = x * 2.0\n    return (h, h.mean().reshape([1]), h + 1.0)\n");
  first.save((dir / "b.piece0.pt").string());
  torch::jit::Module second("BranchPiece1");
  second.define("def forward(self, h):\n    return h * 3.0 - 1.0\n");
  second.save((dir / "b.piece1.pt").string());
}

// `decision`: the root's comparison and its sides (node 1 ends the step with h + 1, node 2 runs piece1).
std::string branch_case(const std::string& name, const std::string& extra, const std::string& else_leaf = "",
                        const std::string& decision = R"("compare": ">", "then": 1, "else": 2)") {
  return fmt::format(R"({{"name": "{}", "workload": "torchscript_branches", "inputs": [{{"shape": [4, 3]}}],
       "pieces": [{{"path": "b.piece0.pt", "inputs": ["input0"], "outputs": 3}},
                  {{"path": "b.piece1.pt", "inputs": ["piece0.out0"], "outputs": 1}}],
       "branches": [{{"run": [0], "value": "piece0.out1", {}, "than": 0.5, "line": "m.py:7"}},
                    {{"outputs": ["piece0.out2"]}},
                    {}]{}}})",
                     name, decision, else_leaf.empty() ? R"({"run": [1], "outputs": ["piece1.out0"]})" : else_leaf,
                     extra);
}

}  // namespace

TEST_CASE("torchscript_branches: eager takes each way the threshold forces, leaving that leaf's outputs and index",
          "[workloads][branches]") {
  ModelDir dir;
  write_pieces(dir.path());
  const auto suite = dir.load(fmt::format("[{}, {}]", branch_case("then", R"(, "threshold": -1e30)"),
                                          branch_case("else", R"(, "threshold": 1e30)")));
  for (const CaseSpec& spec : suite.cases) {
    CAPTURE(spec.name);
    auto instance = instantiate(spec, 5);
    const bool then = spec.name == "then";
    REQUIRE(instance->setup_notes().size() == 1);
    CHECK(instance->setup_notes()[0] ==
          fmt::format("the case's inputs take 1 branch(es) of the model's own forward and end at node {} of 3: {} (at m.py:7)",
                      then ? 1 : 2, then ? "then" : "else"));
    auto runner = instance->make_runner(Variant::named("eager"), /*validation=*/true);
    runner->step();
    const auto observed = runner->observe();
    REQUIRE(observed.size() == 2);  // the leaf's one output, then its index
    // The case's input, drawn again from the same seed.
    at::manual_seed(5);
    const at::Tensor x = at::randn({4, 3});
    CHECK(at::allclose(observed[0], then ? x * 2.0 + 1.0 : x * 6.0 - 1.0, 1e-5, 1e-6));
    CHECK(observed[1].item<float>() == (then ? 1.0f : 2.0f));
  }
}

TEST_CASE("torchscript_branches on the CPU: graph and conditional skipped with their reason, eager recorded",
          "[workloads][branches]") {
  ModelDir dir;
  write_pieces(dir.path());
  const auto suite = dir.load("[" + branch_case("b", "") + "]");
  const auto records = run_case(suite.cases.at(0));
  CHECK(record_of(records, "eager").status == RecordStatus::kOk);
  CHECK(record_of(records, "graph").status == RecordStatus::kSkipped);
  const ResultRecord conditional = record_of(records, "conditional");
  CHECK(conditional.status == RecordStatus::kSkipped);
  CHECK(conditional.reason.find("CUDA") != std::string::npos);  // no CUDA build, or no CUDA device
}

TEST_CASE("torchscript_branches: a bad tree is refused naming the field", "[workloads][branches]") {
  ModelDir dir;
  write_pieces(dir.path());
  const std::string file = (dir.path() / "suite.json").string();
  CHECK(load_error(dir, "[" + branch_case("b", "") + "]") == "(no error)");
  // A piece on two nodes; an output of a piece the path did not run; a node neither decision nor leaf; a cycle.
  CHECK(load_error(dir, "[" + branch_case("b", "", R"({"run": [0], "outputs": ["piece0.out0"]})") + "]") ==
        file + ": /cases/0/branches/2/run/0: piece 0 runs on another node too");
  CHECK(load_error(dir, "[" + branch_case("b", "", R"({"outputs": ["piece1.out0"]})") + "]") ==
        file + ": /cases/0/branches/2/outputs/0: \"piece1.out0\" names piece 1, which does not run before it on this path");
  CHECK(load_error(dir, "[" + branch_case("b", "", R"({"run": [1]})") + "]") ==
        file + ": /cases/0/branches/2: expected a decision (\"value\") or a leaf with \"outputs\", got neither");
  CHECK(load_error(dir, "[" + branch_case("b", "", R"({"run": [1], "value": "piece1.out0", "then": 0, "else": 1})") +
                            "]") ==
        file + ": /cases/0/branches/2/then: expected the index of a node after this one (below 3), got 0");
}

TEST_CASE("torchscript_branches on the GPU: graph and conditional take eager's way on both outcomes",
          "[cuda][branches]") {
  GRAPHBENCH_REQUIRE_CUDA();
  ModelDir dir;
  write_pieces(dir.path());
  // The exit on the then side of `>`, and on the else side of `<=` (taken where it does not hold).
  const std::string else_exit = R"("compare": "<=", "then": 2, "else": 1)";
  const auto suite = dir.load(fmt::format("[{}, {}, {}, {}]", branch_case("then", R"(, "threshold": -1e30)"),
                                          branch_case("else", R"(, "threshold": 1e30)"),
                                          branch_case("le-then", R"(, "threshold": 1e30)", "", else_exit),
                                          branch_case("le-else", R"(, "threshold": -1e30)", "", else_exit)));
  for (const CaseSpec& spec : suite.cases) {
    CAPTURE(spec.name);
    const auto records = run_case(spec, at::kCUDA);
    const bool exits = spec.name == "then" || spec.name == "le-else";
    const auto& notes = record_of(records, "eager").warnings;
    CHECK(std::any_of(notes.begin(), notes.end(), [&](const std::string& note) {
      return note.find(exits ? "end at node 1 of 3" : "end at node 2 of 3") != std::string::npos;
    }));
    for (const char* variant : {"eager", "graph", "conditional", "conditional:replay"}) {
      const ResultRecord r = record_of(records, variant);
      INFO(variant << ": " << r.reason);
      CHECK(r.status == RecordStatus::kOk);
    }
    CHECK(record_of(records, "conditional").graphs_per_step == std::optional<std::int64_t>(1));
    CHECK(counter(record_of(records, "conditional").counters, "conditional_nodes") == 1);
  }
}
