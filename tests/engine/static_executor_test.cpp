// The static executor against the eager one: same results, fixed slots, the train policy (a feed
// never overwrites params or state; they accumulate in the store), warm-up that leaves no trace,
// and one model store shared by a training and an evaluation program.
#include "engine/engine_test_util.h"

using namespace graphbench;
using namespace graphbench::test_util;

TEST_CASE("static matches eager on GELU and computes into fixed slots", "[engine][static]") {
  auto program = gelu_program({32, 16});
  ModelStore store;
  Engine engine(store);
  auto eager = make_executor(ExecutorKind::kEager, engine, Policy::inference());
  auto fixed = make_executor(ExecutorKind::kStatic, engine, Policy::inference());

  std::vector<at::Tensor> eager_outputs;  // kept alive: a fresh tensor each step cannot reuse their memory
  void* static_output = nullptr;
  at::Tensor first_static;
  for (int step = 0; step < 4; ++step) {
    CAPTURE(step);
    const at::Tensor x = at::randn({32, 16}) * 3.0;
    const Feed feed{{"x", x}};
    at::Tensor e = eager->run(program, feed).at(0);
    at::Tensor s = fixed->run(program, feed).at(0);
    CHECK(tensors_close(s, e));
    CHECK(tensors_close(s, gelu_reference(x), 1e-5, 1e-6));
    CHECK_FALSE(s.equal(x));  // really computed

    // Static: the very same output buffer every run, overwritten in place.
    if (step == 0) {
      static_output = s.data_ptr();
      first_static = s;
    }
    CHECK(s.data_ptr() == static_output);
    CHECK(first_static.equal(s));
    // Eager: a fresh tensor every run.
    for (const at::Tensor& earlier : eager_outputs) CHECK(e.data_ptr() != earlier.data_ptr());
    CHECK(e.data_ptr() != x.data_ptr());
    eager_outputs.push_back(e);
  }
  CHECK(engine.counters().bindings == 1);
  CHECK(engine.counters().eager_runs == 4);
  CHECK(engine.counters().static_runs == 4);
  CHECK(engine.counters().compiles == 1);
}

namespace {

const char* const kWeightMomentum = "fc.weight.momentum_buffer";
const char* const kBiasMomentum = "fc.bias.momentum_buffer";

ops::SgdOptions momentum_sgd() {
  ops::SgdOptions sgd;
  sgd.lr = 0.05;
  sgd.momentum = 0.9;
  return sgd;
}

}  // namespace

TEST_CASE("train policy: a feed never overwrites params or state, which accumulate in the store", "[engine][static][train]") {
  Regression r;
  auto program = train_program(r, sgd_steps(momentum_sgd()));
  const int steps = 10;
  auto batches = make_batches(r, steps);

  ModelStore initial;
  init_params(initial, r);
  initial.set(kWeightMomentum, at::zeros({r.out, r.in}));
  initial.set(kBiasMomentum, at::zeros({r.out}));

  // Eager reference on a clone of the initial store.
  ModelStore reference = initial.clone();
  const std::vector<float> eager_losses = train(ExecutorKind::kEager, reference, program, batches);

  ModelStore store = initial.clone();
  void* const weight_buffer = store.at(kWeight).data_ptr();
  void* const momentum_buffer = store.at(kWeightMomentum).data_ptr();
  Engine engine(store);
  auto executor = make_executor(ExecutorKind::kStatic, engine, Policy::train());

  at::Tensor previous_weight = store.at(kWeight).detach().clone();
  at::Tensor previous_momentum = store.at(kWeightMomentum).detach().clone();
  std::vector<float> losses;
  for (int step = 0; step < steps; ++step) {
    CAPTURE(step);
    Feed feed = feed_of(batches[static_cast<std::size_t>(step)]);
    // Values a train feed must never write: a param and a state value.
    feed[kWeight] = at::full({r.out, r.in}, 100.0f);
    feed[kWeightMomentum] = at::full({r.out, r.in}, -100.0f);
    losses.push_back(executor->run(program, feed).at(0).item<float>());

    const at::Tensor& weight = store.at(kWeight);
    const at::Tensor& momentum = store.at(kWeightMomentum);
    CHECK(weight.data_ptr() == weight_buffer);
    CHECK(momentum.data_ptr() == momentum_buffer);
    CHECK(weight.abs().max().item<float>() < 50.0f);
    CHECK(momentum.abs().max().item<float>() < 50.0f);
    // Step after step the store changes: params and the momentum buffer accumulate.
    CHECK_FALSE(weight.equal(previous_weight));
    CHECK_FALSE(momentum.equal(previous_momentum));
    CHECK(momentum.abs().sum().item<float>() > 0.0f);
    previous_weight = weight.detach().clone();
    previous_momentum = momentum.detach().clone();
  }
  CHECK(engine.counters().feed_values_ignored == 2 * steps);
  CHECK(engine.counters().feed_copies == 2 * steps);  // x and target
  CHECK(engine.counters().bindings == 1);
  CHECK(engine.counters().static_runs == steps);

  // The same 10 steps as eager.
  for (const char* name : {kWeight, kBias, kWeightMomentum, kBiasMomentum}) {
    CAPTURE(name);
    CHECK(tensors_close(store.at(name), reference.at(name), 1e-4, 1e-5));
  }
  for (int step = 0; step < steps; ++step) {
    CAPTURE(step);
    CHECK(losses[static_cast<std::size_t>(step)] ==
          Approx(eager_losses[static_cast<std::size_t>(step)]).epsilon(1e-4).margin(1e-6));
  }
  // Training did something.
  CHECK(losses.back() < losses.front());
  CHECK_FALSE(store.at(kWeight).equal(initial.at(kWeight)));
}

TEST_CASE("warm-up steps leave no trace: step 1 of the static executor is eager's step 1", "[engine][static][warmup]") {
  Regression r;
  ops::AdamOptions adam;
  adam.lr = 0.05;
  auto program = train_program(r, adam_steps(adam));
  auto batches = make_batches(r, 2);

  ModelStore initial;
  init_params(initial, r);

  ModelStore reference = initial.clone();
  train(ExecutorKind::kEager, reference, program, {batches[0]});
  REQUIRE(reference.at("adam.step").item<float>() == 1.0f);

  ModelStore store = initial.clone();
  Engine engine(store);
  ExecutorOptions options;
  options.warmup_steps = 3;
  auto executor = make_executor(ExecutorKind::kStatic, engine, Policy::train(), options);
  executor->run(program, feed_of(batches[0]));

  CHECK(engine.counters().warmup_runs == 3);
  CHECK(engine.counters().static_runs == 1);
  CHECK(store.at("adam.step").item<float>() == 1.0f);
  for (const char* name : {kWeight, kBias, "fc.weight.exp_avg", "fc.weight.exp_avg_sq", "fc.bias.exp_avg_sq"}) {
    CAPTURE(name);
    CHECK(tensors_close(store.at(name), reference.at(name), 1e-5, 1e-7));
  }

  // A second run: no more warm-up, step 2.
  train(ExecutorKind::kEager, reference, program, {batches[1]});
  executor->run(program, feed_of(batches[1]));
  CHECK(engine.counters().warmup_runs == 3);
  CHECK(store.at("adam.step").item<float>() == 2.0f);
  CHECK(tensors_close(store.at(kWeight), reference.at(kWeight), 1e-5, 1e-7));
}

TEST_CASE("one store: an evaluation program reads the very buffers training updates", "[engine][store]") {
  Regression r;
  auto train_prog = train_program(r, sgd_steps(momentum_sgd()));
  auto eval_prog = eval_program(r);
  auto batches = make_batches(r, 5);
  const at::Tensor probe = at::randn({r.batch, r.in});

  for (ExecutorKind kind : {ExecutorKind::kEager, ExecutorKind::kStatic}) {
    CAPTURE(to_string(kind));
    ModelStore store;
    init_params(store, r);
    void* const weight_buffer = store.at(kWeight).data_ptr();
    void* const bias_buffer = store.at(kBias).data_ptr();
    Engine engine(store);
    auto trainer = make_executor(kind, engine, Policy::train());
    auto evaluator = make_executor(kind, engine, Policy::inference());

    const at::Tensor before = evaluator->run(eval_prog, Feed{{"x", probe}}).at(0).clone();
    CHECK(tensors_close(before, at::linear(probe, store.at(kWeight).detach(), store.at(kBias).detach())));
    for (const Batch& batch : batches) trainer->run(train_prog, feed_of(batch));
    const at::Tensor after = evaluator->run(eval_prog, Feed{{"x", probe}}).at(0).clone();

    CHECK(store.at(kWeight).data_ptr() == weight_buffer);
    CHECK(store.at(kBias).data_ptr() == bias_buffer);
    CHECK_FALSE(tensors_close(before, after));
    CHECK(tensors_close(after, at::linear(probe, store.at(kWeight).detach(), store.at(kBias).detach()), 1e-5, 1e-6));
    CHECK(engine.counters().compiles == 2);
  }
}

TEST_CASE("a short last batch is a second binding over the same params and state", "[engine][static][train]") {
  Regression r;
  ops::AdamOptions adam;
  adam.lr = 0.05;
  auto program = train_program(r, adam_steps(adam));
  const auto batches = with_short_batch(r, 5);
  ModelStore initial;
  init_params(initial, r);

  ModelStore reference = initial.clone();
  const std::vector<float> eager_losses = train(ExecutorKind::kEager, reference, program, batches);

  ModelStore store = initial.clone();
  Engine engine(store);
  auto executor = make_executor(ExecutorKind::kStatic, engine, Policy::train());
  std::vector<float> losses;
  for (const Batch& batch : batches) losses.push_back(executor->run(program, feed_of(batch)).at(0).item<float>());

  CHECK(engine.counters().bindings == 2);
  CHECK(store.at("adam.step").item<float>() == static_cast<float>(batches.size()));
  for (const char* name : {kWeight, kBias, "fc.weight.exp_avg", "fc.weight.exp_avg_sq"}) {
    CAPTURE(name);
    CHECK(tensors_close(store.at(name), reference.at(name), 1e-4, 1e-5));
  }
  for (std::size_t i = 0; i < batches.size(); ++i) {
    CAPTURE(i);
    CHECK(losses[i] == Approx(eager_losses[i]).epsilon(1e-4).margin(1e-6));
  }
}

TEST_CASE("warm-up leaves no trace in the random number generator either", "[engine][static][warmup]") {
  // Dropout draws from the default generator: warm-up steps must not shift the masks of the real
  // steps, or step 1 of the static executor is not eager's step 1.
  Regression r;
  ops::SgdOptions sgd;
  sgd.lr = 0.05;
  auto program = train_program(r, sgd_steps(sgd), "dropout_train", /*dropout_p=*/0.5);
  auto batches = make_batches(r, 3);
  ModelStore initial;
  init_params(initial, r);

  ModelStore reference = initial.clone();
  at::manual_seed(1234);
  const std::vector<float> eager_losses = train(ExecutorKind::kEager, reference, program, batches);

  ModelStore store = initial.clone();
  at::manual_seed(1234);
  ExecutorOptions options;
  options.warmup_steps = 3;
  const std::vector<float> static_losses =
      train(ExecutorKind::kStatic, store, program, batches, Policy::train(), options);

  for (std::size_t i = 0; i < batches.size(); ++i) {
    CAPTURE(i);
    CHECK(static_losses[i] == Approx(eager_losses[i]).epsilon(1e-5).margin(1e-7));
  }
  CHECK(tensors_close(store.at(kWeight), reference.at(kWeight), 1e-5, 1e-7));
  // The same seeds without warm-up on one side would differ: the masks matter here.
  ModelStore other = initial.clone();
  at::manual_seed(4321);
  const std::vector<float> other_losses = train(ExecutorKind::kEager, other, program, batches);
  CHECK(other_losses[0] != Approx(eager_losses[0]).epsilon(1e-5));
}
