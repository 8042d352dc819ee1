// The optimizer ops against torch::optim on the same data and the same initial weights: SGD
// (momentum, weight decay), Adam (L2 weight decay) and AdamW (decoupled weight decay), through the
// eager and the static executor.
#include "engine/engine_test_util.h"

// torch::optim's optimizers alone, not <torch/torch.h> (its data loaders, serialization and every
// module cost a file about 10 s of compiler time: docs/building.md).
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/sgd.h>

using namespace graphbench;
using namespace graphbench::test_util;

namespace {

constexpr int kSteps = 20;
constexpr double kRtol = 1e-4;
constexpr double kAtol = 1e-5;

// Plain LibTorch training of the same model with `optimizer`; returns {weight, bias} after all steps.
template <typename Optimizer, typename Options>
std::pair<at::Tensor, at::Tensor> torch_reference(const ModelStore& initial, const std::vector<Batch>& batches,
                                                  const Options& options) {
  torch::Tensor w = initial.at(kWeight).detach().clone().requires_grad_(true);
  torch::Tensor b = initial.at(kBias).detach().clone().requires_grad_(true);
  Optimizer optimizer(std::vector<torch::Tensor>{w, b}, options);
  for (const Batch& batch : batches) {
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(torch::linear(batch.x, w, b), batch.target);
    loss.backward();
    optimizer.step();
  }
  return {w.detach(), b.detach()};
}

void check_against(const std::shared_ptr<const Program>& program, const ModelStore& initial,
                   const std::vector<Batch>& batches, const std::pair<at::Tensor, at::Tensor>& expected,
                   const char* step_state) {
  // The reference must have moved, or the comparison proves nothing.
  REQUIRE_FALSE(tensors_close(expected.first, initial.at(kWeight), kRtol, kAtol));
  for (ExecutorKind kind : {ExecutorKind::kEager, ExecutorKind::kStatic}) {
    CAPTURE(to_string(kind));
    ModelStore store = initial.clone();
    const std::vector<float> losses = train(kind, store, program, batches);
    INFO("weight max |diff| " << max_abs_diff(store.at(kWeight), expected.first));
    CHECK(tensors_close(store.at(kWeight), expected.first, kRtol, kAtol));
    CHECK(tensors_close(store.at(kBias), expected.second, kRtol, kAtol));
    CHECK(losses.back() < losses.front());
    if (step_state != nullptr) {
      REQUIRE(store.contains(step_state));
      CHECK(store.at(step_state).item<float>() == static_cast<float>(batches.size()));
    }
  }
}

}  // namespace

TEST_CASE("optimizers match torch::optim over 20 steps", "[engine][optimizers]") {
  Regression r;
  auto batches = make_batches(r, kSteps);
  ModelStore initial;
  init_params(initial, r);

  SECTION("SGD with momentum and weight decay") {
    ops::SgdOptions sgd;
    sgd.lr = 0.05;
    sgd.momentum = 0.9;
    sgd.weight_decay = 0.01;
    auto expected = torch_reference<torch::optim::SGD>(
        initial, batches, torch::optim::SGDOptions(sgd.lr).momentum(sgd.momentum).weight_decay(sgd.weight_decay));
    check_against(train_program(r, sgd_steps(sgd), "sgd_train"), initial, batches, expected, nullptr);
  }
  SECTION("plain SGD") {
    ops::SgdOptions sgd;
    sgd.lr = 0.1;
    auto expected = torch_reference<torch::optim::SGD>(initial, batches, torch::optim::SGDOptions(sgd.lr));
    check_against(train_program(r, sgd_steps(sgd), "plain_sgd_train"), initial, batches, expected, nullptr);
  }
  SECTION("Adam with L2 weight decay") {
    ops::AdamOptions adam;
    adam.lr = 0.02;
    adam.beta1 = 0.8;
    adam.beta2 = 0.99;
    adam.eps = 1e-6;
    adam.weight_decay = 0.05;
    auto expected = torch_reference<torch::optim::Adam>(initial, batches,
                                                        torch::optim::AdamOptions(adam.lr)
                                                            .betas(std::make_tuple(adam.beta1, adam.beta2))
                                                            .eps(adam.eps)
                                                            .weight_decay(adam.weight_decay));
    check_against(train_program(r, adam_steps(adam), "adam_train"), initial, batches, expected, "adam.step");
  }
  SECTION("AdamW: decoupled weight decay") {
    ops::AdamOptions adam;
    adam.lr = 0.02;
    adam.weight_decay = 0.1;
    adam.decoupled_weight_decay = true;
    auto expected = torch_reference<torch::optim::AdamW>(initial, batches,
                                                         torch::optim::AdamWOptions(adam.lr)
                                                             .betas(std::make_tuple(adam.beta1, adam.beta2))
                                                             .eps(adam.eps)
                                                             .weight_decay(adam.weight_decay));
    check_against(train_program(r, adam_steps(adam), "adamw_train"), initial, batches, expected, "adam.step");
    // Adam and AdamW differ when weight decay is on: the test above can tell them apart.
    auto l2 = torch_reference<torch::optim::Adam>(initial, batches,
                                                  torch::optim::AdamOptions(adam.lr)
                                                      .betas(std::make_tuple(adam.beta1, adam.beta2))
                                                      .eps(adam.eps)
                                                      .weight_decay(adam.weight_decay));
    CHECK_FALSE(tensors_close(l2.first, expected.first, kRtol, kAtol));
  }
}
