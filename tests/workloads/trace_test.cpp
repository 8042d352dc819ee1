// --trace (engine/runner/case_trace, engine/timing/step_trace): the file names, and on the GPU machine ([cuda])
// a Chrome trace per variant with the device's kernels and each traced step marked.
#include "support/catch.h"
#include "support/cuda_skip.h"
#include "support/scratch_dir.h"

#include "graphbench/engine/runner/benchmark_case.h"
#include "graphbench/engine/runner/case_trace.h"
#include "graphbench/engine/runner/workload_registry.h"
#include "graphbench/core/suite/suite_parser.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace {

using namespace graphbench;

CaseSpec trace_case() {
  const std::string suite = R"({"suite": "t", "defaults": {"warmup": 1, "sampling": {"min_samples": 3,
      "max_samples": 4, "min_time_s": 0.001, "max_time_s": 60, "min_sample_time_ms": 0.1}},
      "cases": [{"name": "g[batch=2]", "workload": "gelu", "shape": [2, 3, 64, 64], "variants": ["eager", "graph"]}]})";
  return parse_suite_spec(parse_suite_json(suite, "t.json"), "t.json", WorkloadRegistry::global().descriptors()).cases.at(0);
}

}  // namespace

TEST_CASE("trace files are named for the case and the variant, safe as file names") {
  CHECK(trace_file_name("gelu-small", "graph") == "gelu-small.graph.trace.json");
  CHECK(trace_file_name("linear-dropout[batch=8]", "graph:replay") == "linear-dropout_batch_8_.graph_replay.trace.json");
  CHECK(trace_file_name("../x y", "eager") == ".._x_y.eager.trace.json");
  // A data-parallel run: one file per rank.
  CHECK(trace_file_name("ddp-mnist-step", "graph", 0) == "ddp-mnist-step.graph.rank0.trace.json");
  CHECK(trace_file_name("ddp-mnist-step", "graph", 1) == "ddp-mnist-step.graph.rank1.trace.json");
}

TEST_CASE("on the GPU, --trace writes a Chrome trace per variant with its kernels and its steps marked", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  testing::ScratchDir dir("graphbench-trace");
  CaseContext context;
  context.device = at::kCUDA;
  context.trace_dir = dir.path().string();
  const CaseSpec spec = trace_case();
  const auto records = run_benchmark_case(*WorkloadRegistry::global().find(spec.workload), spec, context, Environment{}, nullptr);
  for (const ResultRecord& r : records) {
    INFO(r.variant << ": " << r.reason);
    REQUIRE(r.status == RecordStatus::kOk);
    const auto path = dir.path() / trace_file_name(r.case_name, r.variant);
    REQUIRE(std::filesystem::exists(path));
    const auto trace = nlohmann::json::parse(std::ifstream(path));
    int kernels = 0;
    int steps = 0;
    int graph_launches = 0;
    for (const auto& event : trace.at("traceEvents")) {
      const std::string category = event.value("cat", "");
      const std::string name = event.value("name", "");
      if (category == "kernel") ++kernels;
      if (name.rfind("graphbench step ", 0) == 0) ++steps;
      if (name == "cudaGraphLaunch") ++graph_launches;
    }
    CHECK(kernels >= kTracedSteps);
    CHECK(steps >= kTracedSteps);
    if (r.variant == "graph") CHECK(graph_launches == kTracedSteps);
  }
}
