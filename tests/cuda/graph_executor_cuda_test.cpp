// The graph executor on a GPU: capture once per graph key and replay, training inside the graph
// (state accumulates, Adam's bias corrections change from replay to replay), dropout masks that
// differ between replays, and a failing capture that is ended cleanly (or falls back to eager).
// Every case starts with GRAPHBENCH_REQUIRE_CUDA(): without a GPU it is skipped with a message.
#include "engine/engine_test_util.h"
#include "support/cuda_skip.h"

#include <cmath>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#endif

using namespace graphbench;
using namespace graphbench::test_util;

namespace {

Regression cuda_regression() {
  Regression r;
  r.batch = 64;
  r.in = 32;
  r.out = 8;
  r.device = at::Device(at::kCUDA);
  return r;
}

#ifdef GRAPHBENCH_WITH_CUDA
// Whether the caching allocator still recycles a block that was used on a second stream once that
// use is over. It does so only while it believes no capture is underway: a capture whose end was
// never reported to it would make it hold such blocks forever.
bool cross_stream_block_is_recycled() {
  const std::int64_t n = (5 << 20) / 4 + 1234 * 128;  // an unusual size: only this block fits it exactly
  at::Tensor t = at::zeros({n}, at::TensorOptions().device(at::kCUDA));
  const auto side = at::cuda::getStreamFromPool();
  at::cuda::getCurrentCUDAStream().synchronize();
  {
    c10::cuda::CUDAStreamGuard guard(side);
    t.add_(1);
  }
  t.record_stream(side);
  void* const block = t.data_ptr();
  t.reset();
  c10::cuda::device_synchronize();
  at::Tensor again = at::empty({n}, at::TensorOptions().device(at::kCUDA));
  return again.data_ptr() == block;
}
#endif

std::shared_ptr<const Program> syncing_program(std::int64_t n) {
  Builder b("syncing");
  ValueId x = b.input("x", fspec({n}, at::kCUDA));
  b.output("y", b.add1(std::make_shared<HostSyncingOp>(), {x}));
  return b.build();
}

}  // namespace

TEST_CASE("a CUDA device named without an index is the current device", "[cuda][plan]") {
  GRAPHBENCH_REQUIRE_CUDA();
  Builder b("unindexed");
  ValueId x = b.input("x", fspec({8}, at::Device(at::kCUDA)));
  const at::Device device = b.spec(x).device;
  CHECK(device.is_cuda());
  CHECK(device.has_index());
  b.output("y", ops::relu(b, x));
  auto program = b.build();
  ModelStore store;
  Engine engine(store);
  for (ExecutorKind kind : {ExecutorKind::kEager, ExecutorKind::kStatic, ExecutorKind::kGraph}) {
    CAPTURE(to_string(kind));
    auto executor = make_executor(kind, engine, Policy::inference());
    const at::Tensor input = cuda_randn({8}, 5);
    CHECK(tensors_close(executor->run(program, Feed{{"x", input}}).at(0), input.clamp_min(0)));
  }
}

TEST_CASE("graph executor: GELU captured once per shape, replayed, equal to eager", "[cuda][graph]") {
  GRAPHBENCH_REQUIRE_CUDA();
  auto program = gelu_program({256, 64}, at::kCUDA);
  ModelStore eager_store;
  Engine eager_engine(eager_store);
  auto eager = make_executor(ExecutorKind::kEager, eager_engine, Policy::inference());
  ModelStore store;
  Engine engine(store);
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference());
  const Counters& c = engine.counters();

  void* output_buffer = nullptr;
  for (int i = 0; i < 50; ++i) {
    CAPTURE(i);
    const at::Tensor x = cuda_randn({256, 64}, 100 + static_cast<std::uint64_t>(i)) * 2.0;
    const at::Tensor expected = eager->run(program, Feed{{"x", x}}).at(0);
    const at::Tensor y = graph->run(program, Feed{{"x", x}}).at(0);
    REQUIRE(y.device().is_cuda());
    CHECK(tensors_close(y, expected, 1e-5, 1e-6));
    if (i == 0) output_buffer = y.data_ptr();
    CHECK(y.data_ptr() == output_buffer);
  }
  CHECK(c.captures == 1);
  CHECK(c.replays == 50);
  CHECK(c.graph_cache_hits == 49);
  CHECK(c.graph_cache_entries == 1);
  CHECK(c.capture_failures == 0);
  CHECK(c.compiles == 1);
  CHECK(graph->last_capture_ms().has_value());
  // The graph's own values live in its private pool, in three buffers for five values (the input
  // buffer is the binding's, outside the pool).
  const std::int64_t tensor_bytes = 256 * 64 * 4;
  const std::optional<std::int64_t> pool_bytes = graph->graph_facts().at(0).pool_allocated_bytes;
  REQUIRE(pool_bytes.has_value());
  CHECK(*pool_bytes >= 3 * tensor_bytes);
  CHECK(*pool_bytes < 5 * tensor_bytes);

  // A new input shape: a second capture beside the first.
  const at::Tensor short_x = cuda_randn({100, 64}, 7);
  const at::Tensor short_y = graph->run(program, Feed{{"x", short_x}}).at(0);
  CHECK(short_y.sizes() == at::IntArrayRef({100, 64}));
  CHECK(tensors_close(short_y, gelu_reference(short_x), 1e-5, 1e-6));
  CHECK(c.captures == 2);
  CHECK(c.graph_cache_entries == 2);
  // The total sums both captures: the first one's time and the second's.
  CHECK(graph->total_capture_ms() > *graph->last_capture_ms());

  // The first shape again: replayed from its own entry, no recapture.
  const at::Tensor x = cuda_randn({256, 64}, 8);
  const at::Tensor y = graph->run(program, Feed{{"x", x}}).at(0);
  CHECK(tensors_close(y, gelu_reference(x), 1e-5, 1e-6));
  CHECK(y.data_ptr() == output_buffer);
  CHECK(c.captures == 2);
  CHECK(c.graph_cache_entries == 2);
  CHECK(c.replays == 52);
  CHECK(c.compiles == 1);
}

TEST_CASE("graph executor: training replays follow eager's loss trajectory", "[cuda][graph][train]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const Regression r = cuda_regression();
  ops::SgdOptions sgd;
  sgd.lr = 0.02;
  sgd.momentum = 0.9;
  auto program = train_program(r, sgd_steps(sgd), "cuda_regression_train", /*dropout_p=*/0.0);
  const int steps = 100;
  auto batches = make_batches(r, steps);
  ModelStore initial;
  init_params(initial, r);

  ModelStore eager_store = initial.clone();
  ModelStore graph_store = initial.clone();
  Engine eager_engine(eager_store);
  Engine graph_engine(graph_store);
  auto eager = make_executor(ExecutorKind::kEager, eager_engine, Policy::train());
  auto graph = make_executor(ExecutorKind::kGraph, graph_engine, Policy::train());
  void* const weight_buffer = graph_store.at(kWeight).data_ptr();

  std::vector<at::Tensor> eager_losses;
  std::vector<at::Tensor> graph_losses;
  for (const Batch& batch : batches) {
    // Outputs are slots, overwritten by the next run: clone before running again.
    eager_losses.push_back(eager->run(program, feed_of(batch)).at(0).detach().clone());
    graph_losses.push_back(graph->run(program, feed_of(batch)).at(0).detach().clone());
  }
  const at::Tensor eager_curve = at::stack(eager_losses).cpu();
  const at::Tensor graph_curve = at::stack(graph_losses).cpu();
  INFO("loss: eager " << eager_curve[0].item<float>() << " -> " << eager_curve[steps - 1].item<float>()
                      << ", graph " << graph_curve[0].item<float>() << " -> " << graph_curve[steps - 1].item<float>());
  CHECK(tensors_close(graph_curve, eager_curve, 1e-4, 1e-5));
  // Training happened in the graph (a graph that reset its state would stay near the first loss).
  CHECK(graph_curve[steps - 1].item<float>() < 0.5f * graph_curve[0].item<float>());
  CHECK(tensors_close(graph_store.at(kWeight), eager_store.at(kWeight), 1e-4, 1e-5));
  CHECK(tensors_close(graph_store.at("fc.weight.momentum_buffer"), eager_store.at("fc.weight.momentum_buffer"), 1e-4, 1e-5));
  CHECK(graph_store.at(kWeight).data_ptr() == weight_buffer);

  const Counters& c = graph_engine.counters();
  CHECK(c.captures == 1);
  CHECK(c.replays == steps);
  CHECK(c.graph_cache_hits == steps - 1);
  CHECK(c.compiles == 1);
}

TEST_CASE("graph executor: capture of a training program after eager steps on the same store", "[cuda][graph][train]") {
  GRAPHBENCH_REQUIRE_CUDA();
  // The eager executor keeps its last step's tensors (and so that step's autograd graph, with the
  // params' gradient accumulators made on the default stream) until its next run; a capture on the
  // same params must not depend on them.
  const Regression r = cuda_regression();
  ops::SgdOptions sgd;
  sgd.lr = 0.02;
  auto program = train_program(r, sgd_steps(sgd), "cuda_eager_then_graph");
  auto batches = make_batches(r, 6);
  ModelStore initial;
  init_params(initial, r);
  ModelStore reference = initial.clone();
  train(ExecutorKind::kEager, reference, program, batches);

  ModelStore store = initial.clone();
  Engine engine(store);
  auto eager = make_executor(ExecutorKind::kEager, engine, Policy::train());
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::train());
  const at::Tensor eager_loss = eager->run(program, feed_of(batches[0])).at(0);
  eager->run(program, feed_of(batches[1]));
  for (std::size_t i = 2; i < batches.size(); ++i) graph->run(program, feed_of(batches[i]));
  CHECK(engine.counters().captures == 1);
  CHECK(engine.counters().replays == 4);
  CHECK(tensors_close(store.at(kWeight), reference.at(kWeight), 1e-4, 1e-5));
  CHECK(tensors_close(store.at(kBias), reference.at(kBias), 1e-4, 1e-5));
  CHECK(eager_loss.defined());
}

TEST_CASE("graph executor: Adam's step and bias corrections advance inside the graph", "[cuda][graph][adam]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const Regression r = cuda_regression();
  ops::AdamOptions adam;
  adam.lr = 0.01;
  adam.weight_decay = 0.01;
  auto program = train_program(r, adam_steps(adam), "cuda_adam_train");
  const int steps = 30;
  auto batches = make_batches(r, steps);
  ModelStore initial;
  init_params(initial, r);

  ModelStore eager_store = initial.clone();
  ModelStore graph_store = initial.clone();
  train(ExecutorKind::kEager, eager_store, program, batches);

  Engine engine(graph_store);
  ExecutorOptions options;
  options.warmup_steps = 3;
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::train(), options);
  for (int i = 0; i < steps; ++i) {
    graph->run(program, feed_of(batches[static_cast<std::size_t>(i)]));
    if (i == 0) {
      // Warm-up steps were undone: this is step 1.
      CHECK(graph_store.at("adam.step").item<float>() == 1.0f);
    }
  }
  CHECK(engine.counters().captures == 1);
  CHECK(engine.counters().replays == steps);
  CHECK(engine.counters().warmup_runs == 3);
  REQUIRE(graph_store.at("adam.step").device().is_cuda());
  CHECK(graph_store.at("adam.step").item<float>() == static_cast<float>(steps));
  CHECK(eager_store.at("adam.step").item<float>() == static_cast<float>(steps));
  for (const char* name : {kWeight, kBias, "fc.weight.exp_avg", "fc.weight.exp_avg_sq"}) {
    CAPTURE(name);
    INFO("max |diff| " << max_abs_diff(graph_store.at(name), eager_store.at(name)));
    CHECK(tensors_close(graph_store.at(name), eager_store.at(name), 1e-4, 1e-5));
  }
  CHECK_FALSE(tensors_close(graph_store.at(kWeight), initial.at(kWeight), 1e-4, 1e-5));
}

TEST_CASE("graph executor: a short last batch is a second capture over the same params and state",
          "[cuda][graph][train]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const Regression r = cuda_regression();
  ops::AdamOptions adam;
  adam.lr = 0.01;
  auto program = train_program(r, adam_steps(adam), "cuda_short_batch_train");
  auto eval = eval_program(r, "cuda_eval");
  const auto batches = with_short_batch(r, 17);
  ModelStore initial;
  init_params(initial, r);

  ModelStore reference = initial.clone();
  const std::vector<float> eager_losses = train(ExecutorKind::kEager, reference, program, batches);

  ModelStore store = initial.clone();
  Engine engine(store);
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::train());
  auto graph_eval = make_executor(ExecutorKind::kGraph, engine, Policy::inference());
  const at::Tensor probe = cuda_randn({r.batch, r.in}, 99);
  const at::Tensor before = graph_eval->run(eval, Feed{{"x", probe}}).at(0).clone();
  std::vector<float> losses;
  for (const Batch& batch : batches) losses.push_back(graph->run(program, feed_of(batch)).at(0).item<float>());
  const at::Tensor after = graph_eval->run(eval, Feed{{"x", probe}}).at(0).clone();

  CHECK(engine.counters().captures == 3);  // two training shapes and the evaluation
  CHECK(engine.counters().graph_cache_entries == 3);
  CHECK(engine.counters().replays == static_cast<std::int64_t>(batches.size()) + 2);
  CHECK(store.at("adam.step").item<float>() == static_cast<float>(batches.size()));
  for (const char* name : {kWeight, kBias, "fc.weight.exp_avg_sq"}) {
    CAPTURE(name);
    CHECK(tensors_close(store.at(name), reference.at(name), 1e-4, 1e-5));
  }
  for (std::size_t i = 0; i < batches.size(); ++i) {
    CAPTURE(i);
    CHECK(losses[i] == Approx(eager_losses[i]).epsilon(1e-4).margin(1e-6));
  }
  // The captured evaluation reads the buffers the training graphs updated.
  CHECK_FALSE(tensors_close(before, after, 1e-4, 1e-5));
  CHECK(tensors_close(after, at::linear(probe, store.at(kWeight).detach(), store.at(kBias).detach()), 1e-4, 1e-5));
}

TEST_CASE("graph executor: training with dropout inside the graph", "[cuda][graph][dropout]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const Regression r = cuda_regression();
  ops::SgdOptions sgd;
  sgd.lr = 0.02;
  sgd.momentum = 0.9;
  auto program = train_program(r, sgd_steps(sgd), "cuda_dropout_train", /*dropout_p=*/0.2);
  const auto batches = make_batches(r, 60);
  ModelStore store;
  init_params(store, r);
  const std::vector<float> losses = train(ExecutorKind::kGraph, store, program, batches);
  for (float loss : losses) CHECK(std::isfinite(loss));
  float first = 0.0f;
  float last = 0.0f;
  for (std::size_t i = 0; i < 10; ++i) {
    first += losses[i];
    last += losses[losses.size() - 1 - i];
  }
  CHECK(last < 0.7f * first);

  // Same seed, same masks: warm-up draws nothing the replays would miss.
  ModelStore eager_store;
  init_params(eager_store, r);
  ModelStore graph_store = eager_store.clone();
  at::manual_seed(77);
  const std::vector<float> eager_losses = train(ExecutorKind::kEager, eager_store, program, batches);
  at::manual_seed(77);
  const std::vector<float> graph_losses = train(ExecutorKind::kGraph, graph_store, program, batches);
  for (std::size_t i = 0; i < batches.size(); ++i) {
    CAPTURE(i);
    CHECK(graph_losses[i] == Approx(eager_losses[i]).epsilon(1e-4).margin(1e-6));
  }
}

TEST_CASE("graph executor: dropout masks differ from replay to replay", "[cuda][graph][dropout]") {
  GRAPHBENCH_REQUIRE_CUDA();
  Builder b("dropout_only");
  ValueId x = b.input("x", fspec({64, 1024}, at::kCUDA));
  b.output("y", ops::dropout(b, x, 0.5));
  auto program = b.build();

  ModelStore store;
  Engine engine(store);
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference());
  const at::Tensor ones = at::ones({64, 1024}, at::TensorOptions().device(at::kCUDA));
  std::vector<at::Tensor> outputs;
  for (int i = 0; i < 3; ++i) outputs.push_back(graph->run(program, Feed{{"x", ones}}).at(0).clone().cpu());
  CHECK(engine.counters().captures == 1);
  CHECK(engine.counters().replays == 3);

  for (const at::Tensor& y : outputs) {
    const double zero_fraction = (y == 0).to(at::kDouble).mean().item<double>();
    CHECK(zero_fraction > 0.45);
    CHECK(zero_fraction < 0.55);
    // Kept values are scaled by 1 / (1 - p).
    CHECK(at::logical_or(y == 0, y == 2).all().item<bool>());
  }
  CHECK_FALSE(outputs[0].equal(outputs[1]));
  CHECK_FALSE(outputs[1].equal(outputs[2]));
  CHECK_FALSE(outputs[0].equal(outputs[2]));
}

TEST_CASE("graph executor: a failing capture is ended cleanly, with fallback it runs eagerly", "[cuda][graph][capture]") {
  GRAPHBENCH_REQUIRE_CUDA();
  auto program = syncing_program(1024);
  const at::Tensor x = cuda_randn({1024}, 3);
#ifdef GRAPHBENCH_WITH_CUDA
  REQUIRE(cross_stream_block_is_recycled());
#endif

  {
    ModelStore store;
    Engine engine(store);
    auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference());
    CHECK_THROWS_AS(graph->run(program, Feed{{"x", x}}), CaptureError);
    CHECK(engine.counters().capture_failures == 1);
    CHECK(engine.counters().captures == 0);
    CHECK(engine.counters().replays == 0);
    CHECK(graph->fallback_reasons().empty());
  }
  {
    ModelStore store;
    Engine engine(store);
    ExecutorOptions options;
    options.fallback_to_eager = true;
    auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference(), options);
    for (int i = 0; i < 3; ++i) {
      const at::Tensor y = graph->run(program, Feed{{"x", x}}).at(0);
      CHECK(tensors_close(y, x + 1.0));
    }
    REQUIRE_FALSE(graph->fallback_reasons().empty());
    CHECK_THAT(graph->fallback_reasons().front(), GB_CONTAINS("syncing"));
    CHECK(engine.counters().eager_fallback_runs == 3);
    CHECK(engine.counters().capture_failures == 1);
    CHECK(engine.counters().captures == 0);
    CHECK(engine.counters().replays == 0);
  }
  {
    // The failed captures left no stream capturing: a valid capture in the same process works.
    auto gelu = gelu_program({128, 32}, at::kCUDA);
    ModelStore store;
    Engine engine(store);
    auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference());
    for (int i = 0; i < 3; ++i) {
      const at::Tensor gx = cuda_randn({128, 32}, 40 + static_cast<std::uint64_t>(i));
      CHECK(tensors_close(graph->run(gelu, Feed{{"x", gx}}).at(0), gelu_reference(gx), 1e-5, 1e-6));
    }
    CHECK(engine.counters().captures == 1);
    CHECK(engine.counters().replays == 3);
#ifdef GRAPHBENCH_WITH_CUDA
    // The allocator was told that the failed captures ended.
    CHECK(cross_stream_block_is_recycled());
#endif
    // And ordinary CUDA work too.
    CHECK((x * 2).sum().item<float>() == Approx(2 * x.sum().item<float>()).epsilon(1e-4));
  }
}
