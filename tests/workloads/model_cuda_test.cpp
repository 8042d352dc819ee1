// The model workloads on the GPU ([cuda]; skipped without one): graph variants validate and are
// captured once; a model that synchronises, or that replays a CUDA graph of its own, makes the
// capture fail with its cause named, and the graph variant runs eagerly while the run goes on.
#include "workloads/model_test_util.h"

#include "support/cuda_skip.h"

#include "graphbench/engine/plan/builder.h"
#include "graphbench/engine/runner/engine_runner.h"

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#endif

namespace {

using namespace graphbench;
using namespace graphbench::testing;

void require_ok(const std::vector<ResultRecord>& records, const std::string& variant) {
  const ResultRecord& r = record_of(records, variant);
  INFO(r.case_name << "/" << variant << ": " << r.reason);
  REQUIRE(r.status == RecordStatus::kOk);
  CHECK(r.samples_us.size() >= 3);
}

}  // namespace

TEST_CASE("torchscript on the GPU: inference and a training step validate, the graph is captured once", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  ModelDir dir;
  const auto suite = dir.load(R"([
      {"name": "mlp", "workload": "torchscript", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}]},
      {"name": "train", "workload": "torchscript", "mode": "train", "path": "mlp.pt", "inputs": [{"shape": [8, 5]}],
       "loss": "cross_entropy", "optimizer": "adam", "lr": 0.01},
      {"name": "tokens", "workload": "torchscript", "path": "tokens.pt",
       "inputs": [{"shape": [2, 7], "dtype": "int64", "range": [0, 50]}]}])");
  for (const CaseSpec& spec : suite.cases) {
    CAPTURE(spec.name);
    const auto records = run_case(spec, at::kCUDA);
    for (const char* v : {"eager", "static", "graph"}) require_ok(records, v);
    const ResultRecord& graph = record_of(records, "graph");
    CHECK(graph.reason.empty());
    CHECK(counter(graph.counters, "captures") == 1);
    CHECK(counter(graph.counters, "eager_fallback_runs") == 0);
    CHECK(graph.max_abs_error.value() <= 1e-4);
  }
}

// The case users reported as FAILED: a training step with dropout and Adam. TorchScript runs the
// model unoptimised in its first calls, where aten::dropout draws its mask one way, and optimised
// afterwards (and in every capture), where its differentiable graph draws it with rand_like: the
// case settles the model before validation, so that eager and the replay draw the same masks and
// match strictly, without falling back to dropout off.
TEST_CASE("torchscript on the GPU: a training step with dropout and Adam validates strictly", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  ModelDir dir;
  const auto suite = dir.load(R"([
      {"name": "dropout-adam", "workload": "torchscript", "mode": "train", "path": "dropout_mlp.pt",
       "inputs": [{"shape": [32, 5]}], "loss": "cross_entropy", "optimizer": "adam", "lr": 0.01}])");
  const auto records = run_case(suite.cases.at(0), at::kCUDA);
  for (const char* v : {"eager", "static", "graph"}) require_ok(records, v);
  const ResultRecord& graph = record_of(records, "graph");
  CHECK(counter(graph.counters, "captures") == 1);
  CHECK(graph.validation_note.empty());
  CHECK(graph.max_abs_error.value() <= 1e-4);
}

TEST_CASE("a model that synchronises: the capture fails naming the op, the graph variant runs eagerly", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  ModelDir dir;
  const auto suite = dir.load(R"([{"name": "sync", "workload": "torchscript", "path": "syncing.pt",
                                   "inputs": [{"shape": [4]}]}])");
  const auto records = run_case(suite.cases.at(0), at::kCUDA);
  require_ok(records, "eager");
  require_ok(records, "graph");
  const ResultRecord& graph = record_of(records, "graph");
  CHECK_THAT(graph.reason, Catch::StartsWith("ran eagerly, capture failed: capture of program torchscript_forward failed: "));
  CHECK_THAT(graph.reason, Catch::Contains("called a synchronizing CUDA operation"));
  CHECK_THAT(graph.reason, Catch::Contains("(in aten::"));
  CHECK(counter(graph.counters, "captures") == 0);
  CHECK(counter(graph.counters, "eager_fallback_runs") > 0);
}

#ifdef GRAPHBENCH_WITH_CUDA
namespace {

// y = 2 x by replaying a CUDA graph of its own, captured when the op is made: what a model
// compiled with CUDA graphs inside does. Launching a graph into a stream that is being captured
// is not allowed, so our capture of it must fail, cleanly.
class OwnGraphOp final : public Op {
 public:
  explicit OwnGraphOp(std::int64_t n)
      : in_(at::zeros({n}, at::TensorOptions().device(at::kCUDA))), out_(at::zeros_like(in_)) {
    const auto stream = at::cuda::getStreamFromPool();
    at::cuda::getCurrentCUDAStream().synchronize();
    {
      c10::cuda::CUDAStreamGuard guard(stream);
      graph_.capture_begin();
      out_.copy_(in_ * 2.0);
      graph_.capture_end();
    }
    stream.synchronize();
  }
  std::string signature() const override { return "own_graph"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override { return {in.at(0)}; }
  void run(OpIO& io) const override {
    in_.copy_(io.in(0));
    graph_.replay();
    io.out(0) = out_.clone();
  }

 private:
  at::Tensor in_;
  at::Tensor out_;
  mutable at::cuda::CUDAGraph graph_;
};

}  // namespace
#endif

TEST_CASE("a model that replays a CUDA graph of its own inside the capture fails the same clean way", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
#ifdef GRAPHBENCH_WITH_CUDA
  const std::int64_t n = 1024;
  const at::Tensor x = at::randn({n}, at::TensorOptions().device(at::kCUDA));
  Builder b("own_graph_model");
  b.output("y", b.add1(std::make_shared<OwnGraphOp>(n), {b.input("x", spec_of(x))}));
  EngineRunnerConfig config;
  config.program = b.build();
  config.executor = ExecutorKind::kGraph;
  config.options.fallback_to_eager = true;
  config.feed = {{"x", x}};
  EngineRunner runner(std::move(config));
  for (int i = 0; i < 3; ++i) {
    runner.step();
    CHECK(at::allclose(runner.observe().at(0), x * 2.0));
  }
  REQUIRE(runner.capture_failures().size() == 1);
  CHECK_THAT(runner.capture_failures().front(), Catch::StartsWith("capture of program own_graph_model failed: "));
  CHECK(counter(runner.counters(), "captures") == 0);
  CHECK(counter(runner.counters(), "eager_fallback_runs") == 3);

  // Nothing was left capturing: a model that captures fine still does, in the same process.
  ModelDir dir;
  const auto suite = dir.load(R"([{"name": "mlp", "workload": "torchscript", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}]}])");
  const auto records = run_case(suite.cases.at(0), at::kCUDA);
  require_ok(records, "graph");
  CHECK(counter(record_of(records, "graph").counters, "captures") == 1);
#endif
}
