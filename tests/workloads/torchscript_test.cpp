// Workload torchscript on the CPU: a user's model file (built and saved here in C++) runs through
// the engine and computes what the module itself computes; a training step matches a hand-written
// torch::optim loop over 20 steps; several inputs, dict and tuple outputs, int64 token ids.
#include "workloads/model_test_util.h"

#include "models/script_model.h"
#include "support/error_of.h"

#include <fmt/format.h>
// TorchScript and torch::optim's optimizers, not all of <torch/torch.h> (docs/building.md).
#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>
#include <torch/script.h>

namespace {

using namespace graphbench;
using namespace graphbench::testing;

void check_close(const at::Tensor& actual, const at::Tensor& expected, double rtol = 1e-5, double atol = 1e-6) {
  INFO("actual " << actual.sizes() << ", expected " << expected.sizes());
  REQUIRE(actual.sizes() == expected.sizes());
  CHECK(at::allclose(actual, expected, rtol, atol));
}

}  // namespace

TEST_CASE("torchscript: eager and static compute the module's own forward, and the path is relative to the suite") {
  ModelDir dir;
  const auto suite = dir.load(R"([{"name": "mlp", "workload": "torchscript", "path": "mlp.pt",
                                   "inputs": [{"shape": [4, 5]}]}])");
  const CaseSpec& spec = suite.cases.at(0);
  CHECK(spec.params.at("path") == dir.models().mlp);

  auto instance = instantiate(spec, 5);
  at::manual_seed(5);
  const at::Tensor x = at::randn({4, 5});
  torch::jit::Module module = torch::jit::load(dir.models().mlp);
  module.eval();
  at::Tensor expected;
  {
    at::NoGradGuard no_grad;
    expected = module.forward({x}).toTensor();
  }
  for (const char* name : {"eager", "static"}) {
    CAPTURE(name);
    auto runner = instance->make_runner(Variant::named(name), /*validation=*/false);
    for (int step = 0; step < 3; ++step) {  // the first runs profile, later ones are optimised
      runner->step();
      const auto observed = runner->observe();
      REQUIRE(observed.size() == 1);
      check_close(observed[0], expected);
    }
  }
}

TEST_CASE("torchscript: through the case runner eager and static validate and are timed, graph is skipped on the CPU") {
  ModelDir dir;
  const auto suite = dir.load(R"([
      {"name": "mlp", "workload": "torchscript", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}]},
      {"name": "pair", "workload": "torchscript", "path": "pair.pt",
       "inputs": [{"shape": [4, 6]}, {"shape": [4, 6], "dtype": "float32"}]},
      {"name": "tokens", "workload": "torchscript", "path": "tokens.pt",
       "inputs": [{"shape": [2, 7], "dtype": "int64", "range": [0, 50]}]}])");
  for (const CaseSpec& spec : suite.cases) {
    CAPTURE(spec.name);
    const auto records = run_case(spec);
    for (const char* name : {"eager", "static"}) {
      const ResultRecord& r = record_of(records, name);
      INFO(name << ": " << r.reason);
      REQUIRE(r.status == RecordStatus::kOk);
      CHECK(r.samples_us.size() >= 3);
      CHECK(r.reason.empty());
    }
    CHECK(record_of(records, "static").max_abs_error.value() <= 1e-6);
    const ResultRecord& graph = record_of(records, "graph");
    CHECK(graph.status == RecordStatus::kSkipped);
    CHECK_THAT(graph.reason, Catch::Contains("CUDA graphs need a CUDA device"));
  }
}

TEST_CASE("torchscript: two inputs and a tuple with a dict come out as the module's tensors, in order") {
  ModelDir dir;
  const auto suite = dir.load(R"([{"name": "pair", "workload": "torchscript", "path": "pair.pt",
                                   "inputs": [{"shape": [4, 6]}, {"shape": [4, 6]}]}])");
  auto instance = instantiate(suite.cases.at(0), 9);
  at::manual_seed(9);
  const at::Tensor x = at::randn({4, 6});
  const at::Tensor y = at::randn({4, 6});
  const at::Tensor w = torch::jit::load(dir.models().pair).attr("w").toTensor().detach();
  auto runner = instance->make_runner(Variant::named("static"), false);
  runner->step();
  const auto observed = runner->observe();
  REQUIRE(observed.size() == 2);
  check_close(observed[0], x * w + y);
  check_close(observed[1], (x * y).sum(1));
}

TEST_CASE("torchscript: int64 inputs are drawn from their range (token ids)") {
  ModelDir dir;
  const auto suite = dir.load(R"([{"name": "tokens", "workload": "torchscript", "path": "tokens.pt",
                                   "inputs": [{"shape": [3, 9], "dtype": "int64", "range": [40, 50]}]}])");
  auto instance = instantiate(suite.cases.at(0), 21);
  at::manual_seed(21);
  const at::Tensor ids = at::randint(40, 50, {3, 9}, at::kLong);
  REQUIRE(ids.min().item<std::int64_t>() >= 40);
  const at::Tensor table = torch::jit::load(dir.models().tokens).attr("table").toTensor().detach();
  auto runner = instance->make_runner(Variant::named("eager"), false);
  runner->step();
  check_close(runner->observe().at(0), at::embedding(table, ids).mean(1));
}

namespace {

struct TrainingCaseText {
  const char* optimizer;
  const char* loss;
  double lr;
  double momentum;
  double weight_decay;
};

// The hand-written loop: the module, torch::optim, 20 steps; the loss and every parameter after
// each step.
std::vector<std::vector<at::Tensor>> hand_written_steps(const std::string& file, const TrainingCaseText& c,
                                                        const at::Tensor& x, const at::Tensor& target, int steps) {
  torch::jit::Module module = torch::jit::load(file);
  module.train();
  std::vector<at::Tensor> params;
  for (const auto& p : module.parameters()) params.push_back(p);
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  if (std::string(c.optimizer) == "sgd") {
    optimizer = std::make_unique<torch::optim::SGD>(
        params, torch::optim::SGDOptions(c.lr).momentum(c.momentum).weight_decay(c.weight_decay));
  } else {
    optimizer = std::make_unique<torch::optim::Adam>(params, torch::optim::AdamOptions(c.lr).weight_decay(c.weight_decay));
  }
  std::vector<std::vector<at::Tensor>> out;
  for (int s = 0; s < steps; ++s) {
    optimizer->zero_grad();
    const at::Tensor y = module.forward({x}).toTensor();
    at::Tensor loss;
    if (std::string(c.loss) == "mse") loss = torch::mse_loss(y, target);
    if (std::string(c.loss) == "cross_entropy") loss = torch::cross_entropy_loss(y, target);
    if (std::string(c.loss) == "mean") loss = y.mean();
    loss.backward();
    optimizer->step();
    std::vector<at::Tensor> observed{loss.detach().clone()};
    for (const auto& p : params) observed.push_back(p.detach().clone());
    out.push_back(std::move(observed));
  }
  return out;
}

}  // namespace

TEST_CASE("torchscript training: 20 steps match a hand-written torch::optim loop (SGD and Adam, mse, cross_entropy and mean)") {
  ModelDir dir;
  const int kSteps = 20;
  for (const TrainingCaseText& c : {TrainingCaseText{"sgd", "mse", 0.05, 0.9, 0.01},
                                    TrainingCaseText{"adam", "cross_entropy", 0.01, 0.0, 0.0},
                                    TrainingCaseText{"sgd", "mean", 0.1, 0.0, 0.0}}) {
    CAPTURE(c.optimizer, c.loss);
    const auto suite = dir.load(fmt::format(
        R"([{{"name": "train", "workload": "torchscript", "mode": "train", "path": "mlp.pt",
              "inputs": [{{"shape": [8, 5]}}], "loss": "{}", "optimizer": "{}", "lr": {}, "momentum": {},
              "weight_decay": {}}}])",
        c.loss, c.optimizer, c.lr, c.momentum, c.weight_decay));
    auto instance = instantiate(suite.cases.at(0), 3);
    // The workload draws the inputs in order, then the loss's target.
    at::manual_seed(3);
    const at::Tensor x = at::randn({8, 5});
    at::Tensor target;
    if (std::string(c.loss) == "mse") target = at::randn({8, 3});
    if (std::string(c.loss) == "cross_entropy") target = at::randint(0, 3, {8}, at::kLong);
    const auto expected = hand_written_steps(dir.models().mlp, c, x, target, kSteps);

    for (const char* name : {"eager", "static"}) {
      CAPTURE(name);
      auto runner = instance->make_runner(Variant::named(name), /*validation=*/true);
      for (int s = 0; s < kSteps; ++s) {
        CAPTURE(s);
        runner->step();
        const auto observed = runner->observe();
        REQUIRE(observed.size() == expected[static_cast<std::size_t>(s)].size());  // loss and 4 parameters
        for (std::size_t i = 0; i < observed.size(); ++i) {
          check_close(observed[i], expected[static_cast<std::size_t>(s)][i], 1e-4, 1e-6);
        }
      }
    }
  }
}

TEST_CASE("torchscript training: the parameters move, and a model with dropout validates (same random numbers)") {
  ModelDir dir;
  const auto suite = dir.load(R"([
      {"name": "mlp", "workload": "torchscript", "mode": "train", "path": "mlp.pt", "inputs": [{"shape": [8, 5]}],
       "loss": "mse", "lr": 0.1},
      {"name": "dropout", "workload": "torchscript", "mode": "train", "path": "dropout_mlp.pt",
       "inputs": [{"shape": [8, 5]}], "loss": "mean", "optimizer": "adamw", "lr": 0.01, "weight_decay": 0.01}])");
  auto instance = instantiate(suite.cases.at(0), 1);
  auto runner = instance->make_runner(Variant::named("eager"), true);
  runner->step();
  const auto first = runner->observe();
  runner->step();
  const auto second = runner->observe();
  CHECK_FALSE(first[1].equal(second[1]));  // fc1.weight was updated
  CHECK(second[0].item<double>() < first[0].item<double>());  // the loss went down

  const auto records = run_case(suite.cases.at(1));
  const ResultRecord& r = record_of(records, "static");
  INFO(r.reason);
  CHECK(r.status == RecordStatus::kOk);
  CHECK(record_of(records, "eager").status == RecordStatus::kOk);
}

TEST_CASE("torchscript: dropout modules are found by their class, wherever they sit") {
  auto leaf = [](const char* type) {
    torch::jit::Module m(type);
    m.register_attribute("training", c10::BoolType::get(), true);
    m.define("def forward(self, x):\n    return x\n");
    return m;
  };
  torch::jit::Module model = leaf("DropoutMlp");  // not a dropout module: its name only starts so
  torch::jit::Module block = leaf("Block");
  block.register_module("drop", leaf("__torch__.torch.nn.modules.dropout.Dropout2d"));
  model.register_module("block", block);
  model.register_module("head_drop", leaf("__torch__.torch.nn.modules.dropout.Dropout"));
  model.register_module("act", leaf("__torch__.torch.nn.modules.activation.ReLU"));
  const auto found = bench::dropout_modules(model);
  REQUIRE(found.size() == 2);
  std::vector<std::string> names;
  for (const auto& m : found) names.push_back(m.type()->name()->name());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"Dropout", "Dropout2d"});
}

TEST_CASE("model cases: read_bytes gives each variant a roofline, without it the module's parameters and buffers") {
  ModelDir dir;
  const auto suite = dir.load(R"([
      {"name": "with", "workload": "torchscript", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}], "read_bytes": 4096},
      {"name": "without", "workload": "torchscript", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}]}])");
  const ResultRecord with = record_of(run_case(suite.cases.at(0)), "eager");
  REQUIRE(with.roofline.has_value());
  CHECK(with.roofline->bytes == 4096.0);
  CHECK(with.roofline->achieved_gbps == Approx(4096.0 / (with.stats->median * 1e-6) / 1e9));
  // The mlp: fc1 (8x5 + 8), fc2 (3x8 + 3) and a buffer of 3 floats.
  const ResultRecord without = record_of(run_case(suite.cases.at(1)), "eager");
  REQUIRE(without.roofline.has_value());
  CHECK(without.roofline->bytes == 4.0 * (8 * 5 + 8 + 3 * 8 + 3 + 3));

  const std::string error = testing::input_error_of([&] {
    dir.load(R"([{"name": "bad", "workload": "aoti", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}], "read_bytes": 0}])");
  });
  CHECK_THAT(error, Catch::Contains("/cases/0/read_bytes"));
}
