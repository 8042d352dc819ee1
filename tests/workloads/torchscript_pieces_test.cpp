// Workload torchscript with a model in pieces (scripts/export_model.py --scope) in mode train, on
// the CPU: the test mlp split in two (tests/support/test_models.h), each piece's parameters the
// program's own, trains step for step as the whole mlp does, under the eager executor and the
// static one cut by the scopes full, fwd-bwd and layer; the parser takes pieces in mode train and
// still refuses a bad wiring there, naming the field. On the GPU ([cuda]; skipped without one) the
// graph variant captures what each scope says and validates against eager.
#include "workloads/model_test_util.h"

#include "support/cuda_skip.h"

#include <fmt/format.h>

namespace {

using namespace graphbench;
using namespace graphbench::testing;

// The mlp in two pieces, a layer each, in mode train; `extra` is added to the case.
std::string pieces_case(const std::string& name, const std::string& first_input, const std::string& extra) {
  return fmt::format(R"({{"name": "{}", "workload": "torchscript", "mode": "train", "path": "mlp.pt",
       "inputs": [{{"shape": [8, 5]}}], "loss": "mse", "optimizer": "sgd", "lr": 0.05, "momentum": 0.9,
       "pieces": [{{"path": "mlp.piece0.pt", "inputs": ["{}"], "outputs": 1, "module": "fc1", "layer": 0}},
                  {{"path": "mlp.piece1.pt", "inputs": ["piece0.out0"], "outputs": 1, "module": "fc2", "layer": 1}}],
       "piece_outputs": ["piece1.out0"]{}}})",
                     name, first_input, extra);
}

}  // namespace

TEST_CASE("torchscript pieces in mode train: the chain trains step for step as the whole model, at every scope",
          "[workloads][scope][train]") {
  ModelDir dir;
  const auto suite = dir.load(fmt::format(
      R"([{{"name": "whole", "workload": "torchscript", "mode": "train", "path": "mlp.pt",
           "inputs": [{{"shape": [8, 5]}}], "loss": "mse", "optimizer": "sgd", "lr": 0.05, "momentum": 0.9}},
          {}, {}, {}])",
      pieces_case("full", "input0", ""), pieces_case("fwd-bwd", "input0", R"(, "scope": "fwd-bwd")"),
      pieces_case("layer", "input0", R"(, "scope": "layer")")));
  const int kSteps = 8;
  // The same seed draws the same inputs and target for both: the chain's check leaves the
  // generators as it found them.
  auto whole = instantiate(suite.cases.at(0), 3)->make_runner(Variant::named("eager"), /*validation=*/true);
  std::vector<std::vector<at::Tensor>> expected;
  for (int s = 0; s < kSteps; ++s) {
    whole->step();
    expected.push_back(whole->observe());
  }
  REQUIRE(expected.front().size() == 5);  // the loss and fc1's and fc2's weight and bias
  CHECK_FALSE(expected.front()[1].equal(expected.back()[1]));  // it trains

  for (std::size_t c = 1; c < suite.cases.size(); ++c) {
    const CaseSpec& spec = suite.cases.at(c);
    CAPTURE(spec.name);
    auto instance = instantiate(spec, 3);
    for (const char* variant : {"eager", "static"}) {
      CAPTURE(variant);
      auto runner = instance->make_runner(Variant::named(variant), /*validation=*/true);
      for (int s = 0; s < kSteps; ++s) {
        CAPTURE(s);
        runner->step();
        const auto observed = runner->observe();  // the loss, then piece0's and piece1's parameters
        REQUIRE(observed.size() == expected[static_cast<std::size_t>(s)].size());
        for (std::size_t i = 0; i < observed.size(); ++i) {
          CHECK(at::allclose(observed[i], expected[static_cast<std::size_t>(s)][i], 1e-5, 1e-7));
        }
      }
      // The static executor runs the scope's segments; the optimizer is eager under fwd-bwd and layer.
      const std::int64_t eager_segments = counter(runner->counters(), "eager_segment_runs");
      if (std::string(variant) == "static" && spec.name != "full") {
        CHECK(eager_segments == kSteps);
      } else {
        CHECK(eager_segments == 0);
      }
    }
  }
}

TEST_CASE("torchscript pieces: mode train is taken, a bad wiring in it still refused naming the field",
          "[workloads][train]") {
  ModelDir dir;
  const std::string file = (dir.path() / "suite.json").string();
  CHECK(load_error(dir, "[" + pieces_case("m", "input0", "") + "]") == "(no error)");
  CHECK(load_error(dir, "[" + pieces_case("m", "piece1.out0", "") + "]") ==
        file + ": /cases/0/pieces/0/inputs/0: \"piece1.out0\" names piece 1, which does not run before piece 0 "
               "(pieces run in the order given: a wiring to a later piece, or to itself, is a cycle)");
  CHECK(load_error(dir, "[" + pieces_case("m", "input1", "") + "]") ==
        file + ": /cases/0/pieces/0/inputs/0: \"input1\" names model input 1, and the case's inputs are 1 (input0 to "
               "input0)");
}

TEST_CASE("torchscript pieces in mode train on the GPU: full and fwd-bwd one graph, layer one per piece and one for "
          "the loss with backward, validated against eager",
          "[cuda][scope][train]") {
  GRAPHBENCH_REQUIRE_CUDA();
  ModelDir dir;
  const auto suite = dir.load(fmt::format("[{}, {}, {}]", pieces_case("full", "input0", ""),
                                          pieces_case("fwd-bwd", "input0", R"(, "scope": "fwd-bwd")"),
                                          pieces_case("layer", "input0", R"(, "scope": "layer")")));
  // layer: "layer 0", "layer 1", "after layer 1" (the loss and backward, tied to the layers by
  // autograd), then the optimizer eagerly.
  const std::map<std::string, std::int64_t> graphs{{"full", 1}, {"fwd-bwd", 1}, {"layer", 3}};
  for (const CaseSpec& spec : suite.cases) {
    CAPTURE(spec.name);
    const auto records = run_case(spec, at::kCUDA);
    for (const char* variant : {"eager", "static", "graph"}) {
      const ResultRecord r = record_of(records, variant);
      INFO(variant << ": " << r.reason);
      REQUIRE(r.status == RecordStatus::kOk);
    }
    const ResultRecord graph = record_of(records, "graph");
    CHECK(graph.reason.empty());
    CHECK(graph.graphs_per_step == std::optional<std::int64_t>(graphs.at(spec.name)));
    CHECK(counter(graph.counters, "eager_fallback_runs") == 0);
    CHECK(graph.max_abs_error.value() <= 1e-4);
  }
}
