// The real workloads through the case runner: every variant that can run here validates against
// eager and is timed; on the GPU machine ([cuda]) the graph variants too.
#include "support/catch.h"
#include "support/cuda_skip.h"

#include "graphbench/runner/workload_registry.h"

#include "graphbench/data/mnist_files.h"
#include "graphbench/runner/benchmark_case.h"
#include "graphbench/suite/suite_parser.h"

#include <filesystem>

namespace {

using namespace graphbench;

// The case `json` (one case object) parsed as the spec parser does, with quick sampling.
CaseSpec parse_case(const std::string& json) {
  const std::string suite = R"({"suite": "t", "defaults": {"warmup": 1, "sampling": {"min_samples": 3,
      "max_samples": 4, "min_time_s": 0.001, "max_time_s": 60, "min_sample_time_ms": 0.1}}, "cases": [)" + json + "]}";
  return parse_suite_spec(parse_suite_json(suite, "test.json"), "test.json", WorkloadRegistry::global().descriptors()).cases.at(0);
}

std::vector<ResultRecord> run(const std::string& json, at::Device device = at::kCPU) {
  CaseContext context;
  context.device = device;
  return run_benchmark_case(*WorkloadRegistry::global().find(parse_case(json).workload), parse_case(json), context, Environment{}, nullptr);
}

void require_status(const std::vector<ResultRecord>& records, const std::string& variant, RecordStatus status) {
  for (const auto& r : records) {
    if (r.variant != variant) continue;
    INFO(r.case_name << "/" << r.variant << ": " << r.reason);
    REQUIRE(r.status == status);
    if (status == RecordStatus::kOk) {
      CHECK(r.samples_us.size() >= 3);
      CHECK(r.max_abs_error.value_or(0.0) <= 1e-4);
    }
    return;
  }
  FAIL("no record for " << variant);
}

bool have_mnist_data() { return std::filesystem::exists(resolve_mnist_dir(std::nullopt)); }

}  // namespace

TEST_CASE("gelu: eager, static, jit and reference agree on the CPU, graphs are skipped") {
  const auto records = run(R"({"name": "g", "workload": "gelu", "shape": [2, 3, 8, 8]})");
  for (const char* v : {"eager", "static", "jit", "reference"}) require_status(records, v, RecordStatus::kOk);
  for (const char* v : {"graph", "jit+graph", "reference+graph"}) require_status(records, v, RecordStatus::kSkipped);
}

TEST_CASE("linear_dropout: a training step validates over several steps (static, reference)") {
  const auto records = run(R"({"name": "l", "workload": "linear_dropout", "mode": "train", "batch": 8,
      "in_features": 16, "hidden": 32, "out_features": 4, "momentum": 0.9})");
  for (const char* v : {"eager", "static", "reference"}) require_status(records, v, RecordStatus::kOk);
}

TEST_CASE("linear_dropout: inference mode and Adam") {
  const auto inference = run(R"({"name": "l", "workload": "linear_dropout", "mode": "inference", "batch": 8,
      "in_features": 16, "hidden": 32, "out_features": 4, "variants": ["eager", "static", "reference"]})");
  for (const char* v : {"eager", "static", "reference"}) require_status(inference, v, RecordStatus::kOk);
  const auto adam = run(R"({"name": "a", "workload": "linear_dropout", "mode": "train", "batch": 8,
      "in_features": 16, "hidden": 32, "out_features": 4, "optimizer": "adamw", "lr": 0.01, "weight_decay": 0.01,
      "variants": ["eager", "static", "reference"]})");
  require_status(adam, "static", RecordStatus::kOk);
  require_status(adam, "reference", RecordStatus::kFailed);
  CHECK_THAT(adam.back().reason, Catch::Contains("torch::optim::SGD only"));
}

TEST_CASE("mnist: the training step of the engine matches the tutorial's code") {
  if (!have_mnist_data()) {
    GRAPHBENCH_SKIP("no MNIST-format data at " << resolve_mnist_dir(std::nullopt));
  }
  const auto records = run(R"({"name": "m", "workload": "mnist", "kind": "benchmark"})");
  for (const char* v : {"eager", "static", "reference"}) require_status(records, v, RecordStatus::kOk);
  require_status(records, "graph", RecordStatus::kSkipped);
}

TEST_CASE("gelu on the GPU: every variant, graphs included, validates and is timed", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const auto records = run(R"({"name": "g", "workload": "gelu", "shape": [1, 3, 224, 224]})", at::kCUDA);
  for (const auto& v : Variant::names()) require_status(records, v, RecordStatus::kOk);
  for (const auto& r : records) {
    if (r.variant == "graph") CHECK(r.counters.at("captures") == 1);
  }
}

TEST_CASE("linear_dropout on the GPU: graph and reference+graph validate", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const auto linear = run(R"({"name": "l", "workload": "linear_dropout", "mode": "train"})", at::kCUDA);
  for (const char* v : {"eager", "static", "graph", "reference", "reference+graph"}) require_status(linear, v, RecordStatus::kOk);
}

TEST_CASE("mnist on the GPU: graph and reference+graph validate", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!have_mnist_data()) GRAPHBENCH_SKIP("no MNIST-format data at " << resolve_mnist_dir(std::nullopt));
  const auto mnist = run(R"({"name": "m", "workload": "mnist", "kind": "benchmark"})", at::kCUDA);
  for (const char* v : {"eager", "static", "graph", "reference", "reference+graph"}) require_status(mnist, v, RecordStatus::kOk);
}
