// Model inputs with role state (a decoding step's KV cache): drawn once from the case's seed and
// scale, bound as state (a fixed buffer the model writes in place, never fed), each runner starting
// from its own copy; the step's writes land in the buffer graphbench allocated.
#include "workloads/model_test_util.h"

#include "models/model_case.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/ops/script_module.h"
#include "graphbench/engine/plan/builder.h"
#include "graphbench/engine/runner/engine_runner.h"
#include "support/cuda_skip.h"

#include <ATen/CPUGeneratorImpl.h>

namespace {

using namespace graphbench;
using namespace graphbench::testing;

// A decoding step in miniature: writes 2 * x into its cache at `pos` and returns the cache summed
// over positions and the row it wrote, read back from the cache.
torch::jit::Module cache_step() {
  torch::jit::Module m("CacheStep");
  m.define(R"(
def forward(self, x, pos, cache):
    cache.index_copy_(1, pos, (x * 2.0).unsqueeze(1))
    return cache.sum(1), cache.index_select(1, pos)
)");
  return m;
}

// x [2, 4], pos [1] = 3, cache [2, 8, 4] of role state (seed 7, scale 0.5).
const char* const kCacheInputs = R"([{"shape": [2, 4]}, {"shape": [1], "dtype": "int64", "range": [3, 4]},
    {"shape": [2, 8, 4], "role": "state", "seed": 7, "scale": 0.5}])";

at::Tensor seeded_fill() {
  at::Generator generator = at::detail::createCPUGenerator(7);
  return at::randn({2, 8, 4}, generator, at::TensorOptions().dtype(at::kFloat)) * 0.5;
}

}  // namespace

TEST_CASE("a state input is drawn from its seed, kept out of the feed, and written in place by the step") {
  ModelDir dir;
  cache_step().save((dir.path() / "cache_step.pt").string());
  const SuiteSpec suite = dir.load(std::string(R"([{"name": "c", "workload": "torchscript", "path": "cache_step.pt",
      "inputs": )") + kCacheInputs + "}]");
  const auto declared = bench::read_model_inputs(suite.cases.at(0));
  REQUIRE(declared.size() == 3);
  CHECK(declared[2].state);
  CHECK(declared[2].seed == 7);
  CHECK(declared[2].scale == 0.5);
  CHECK(declared[0].dtype == at::kFloat);
  CHECK(declared[0].shape == std::vector<std::int64_t>{2, 4});
  CHECK_FALSE(declared[0].state);
  CHECK(declared[1].dtype == at::kLong);
  CHECK(declared[1].shape == std::vector<std::int64_t>{1});
  CHECK(declared[1].low == 3);
  CHECK(declared[1].high == 4);
  CHECK(declared[2].dtype == at::kFloat);
  CHECK(declared[2].shape == std::vector<std::int64_t>{2, 8, 4});

  const std::vector<at::Tensor> inputs = bench::make_model_inputs(declared, at::kCPU);
  const at::Tensor fill = seeded_fill();
  CHECK(at::equal(inputs[2], fill));

  Builder b("cache_step");
  Feed feed;
  ModelStore store;
  const auto ids = bench::declare_model_inputs(b, inputs, feed, declared, &store);
  CHECK(feed.count("input0") == 1);
  CHECK(feed.count("input2") == 0);
  ops::ScriptModuleCall call;
  call.module = cache_step();
  call.example_inputs = inputs;
  call.label = "cache_step";
  const auto outputs = ops::script_module_call(b, call, ids, {});
  b.output("sum", outputs[0]);
  b.output("written", outputs[1]);
  const auto program = b.build();

  const at::Tensor others = at::tensor({0, 1, 2, 4, 5, 6, 7}, at::kLong);
  for (const ExecutorKind executor : {ExecutorKind::kEager, ExecutorKind::kStatic}) {
    CAPTURE(to_string(executor));
    EngineRunnerConfig config;
    config.program = program;
    config.executor = executor;
    config.policy = bench::model_inference_policy(declared);
    config.store = store.clone();
    config.feed = feed;
    config.observed_store_entries = {"input2"};
    EngineRunner runner(std::move(config));
    runner.step();
    const std::vector<at::Tensor> seen = runner.observe();
    REQUIRE(seen.size() == 3);
    const at::Tensor cache = seen[2];
    CHECK(at::equal(cache.select(1, 3), inputs[0] * 2.0));                            // the row the step wrote
    CHECK(at::equal(cache.index_select(1, others), fill.index_select(1, others)));  // the rest as drawn
    CHECK(at::equal(seen[1].squeeze(1), inputs[0] * 2.0));
  }
  // Each runner wrote its own copy: the case's store holds the example, which only building the op
  // ran the step on (its row 3 written as every step writes it).
  CHECK(store.at("input2").data_ptr() == inputs[2].data_ptr());
  CHECK(at::equal(store.at("input2").index_select(1, others), fill.index_select(1, others)));
  CHECK(at::equal(store.at("input2").select(1, 3), inputs[0] * 2.0));
  CHECK(bench::model_inference_policy(declared).static_roles.contains(Role::kState));
  CHECK_FALSE(bench::model_inference_policy({declared[0]}).static_roles.contains(Role::kState));
}

TEST_CASE("a torchscript case with a state input runs eager and static, validated against eager, its cache in the roofline") {
  ModelDir dir;
  cache_step().save((dir.path() / "cache_step.pt").string());
  const SuiteSpec suite = dir.load(std::string(R"([{"name": "c", "workload": "torchscript", "path": "cache_step.pt",
      "variants": ["eager", "static"], "inputs": )") + kCacheInputs + "}]");
  const auto records = run_case(suite.cases.at(0));
  REQUIRE(records.size() == 2);
  for (const auto& r : records) {
    CAPTURE(r.variant, r.reason);
    CHECK(r.status == RecordStatus::kOk);
  }
  const ResultRecord stat = record_of(records, "static");
  REQUIRE(stat.max_abs_error);
  CHECK(*stat.max_abs_error == 0.0);
  // The roofline: the module has no weights; the step reads its whole cache (2 x 8 x 4 floats).
  CHECK(bench::state_bytes(bench::read_model_inputs(suite.cases.at(0))) == 2 * 8 * 4 * 4.0);
  REQUIRE(stat.roofline.has_value());
  CHECK(stat.roofline->bytes == 2 * 8 * 4 * 4.0);
}

TEST_CASE("state inputs: floating-point only, seed and scale only with role state, inference of one model only") {
  ModelDir dir;
  const std::string file = (dir.path() / "suite.json").string();
  const auto error = [&](const std::string& inputs, const std::string& extra = "") {
    return load_error(dir, R"([{"name": "m", "workload": "torchscript", "path": "mlp.pt", "inputs": )" + inputs + extra +
                               "}]");
  };
  CHECK(error(R"([{"shape": [2], "dtype": "int64", "range": [0, 4], "role": "state"}])") ==
        file + ": /cases/0/inputs/0/role: expected a floating-point dtype for role state (a tensor the model writes "
               "in place, such as a KV cache), got int64");
  CHECK(error(R"([{"shape": [2], "seed": 3}])") ==
        file + ": /cases/0/inputs/0/seed: expected no seed for an input without \"role\": \"state\" (it sets a "
               "state's starting values)");
  CHECK(error(R"([{"shape": [2], "role": "state", "seed": 1.5}])") ==
        file + ": /cases/0/inputs/0/seed: expected a whole number, got 1.5");
  CHECK(error(R"([{"shape": [2], "role": "cache"}])") ==
        file + ": /cases/0/inputs/0/role: expected one of \"input\", \"state\", got \"cache\"");
  CHECK(error(R"([{"shape": [4, 5]}, {"shape": [2], "role": "state"}])",
              R"(, "mode": "train", "loss": "mean")") ==
        file + ": /cases/0/inputs/1/role: expected no role state in mode train (a state input goes with inference of "
               "one whole model, such as a decoding step)");
}

TEST_CASE("a torchscript case with a state input captures on the GPU, the graph validated against eager", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  ModelDir dir;
  cache_step().save((dir.path() / "cache_step.pt").string());
  const SuiteSpec suite = dir.load(std::string(R"([{"name": "c", "workload": "torchscript", "path": "cache_step.pt",
      "inputs": )") + kCacheInputs + "}]");
  const auto records = run_case(suite.cases.at(0), at::kCUDA);
  const ResultRecord graph = record_of(records, "graph");
  CAPTURE(graph.reason);
  REQUIRE(graph.status == RecordStatus::kOk);
  CHECK(counter(graph.counters, "captures") == 1);
  CHECK(counter(graph.counters, "eager_fallback_runs") == 0);
  CHECK(graph.max_abs_error.value() == 0.0);
}
