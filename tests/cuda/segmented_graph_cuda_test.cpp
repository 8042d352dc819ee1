// The graph executor under capture scopes on a GPU: a graph per captured segment, replayed in order
// with the eager segments between them, equal to eager over several steps (inference and
// training, one shared pool and a pool each), the crossing buffers of a value an eager op
// allocates between two graphs, and auto around an op that synchronises with the host.
// Every case starts with GRAPHBENCH_REQUIRE_CUDA(): without a GPU it is skipped with a message.
#include "engine/segment_programs.h"
#include "support/cuda_skip.h"

using namespace graphbench;
using namespace graphbench::test_util;

namespace {

TaggedMlp cuda_mlp() {
  TaggedMlp m;
  m.batch = 64;
  m.in = 32;
  m.hidden = 48;
  m.out = 8;
  m.device = at::Device(at::kCUDA);
  return m;
}

ExecutorOptions scoped(const std::string& text, bool pool_per_graph = false) {
  ExecutorOptions options;
  options.scope = parse_capture_scope(text, "test");
  options.scope.pool_per_graph = pool_per_graph;
  return options;
}

// The first op syncs with the host; its tag says nothing of it (auto finds out by capturing).
FirstOp host_syncing_first() {
  return [](Builder& b, ValueId x) {
    b.set_tag(module_tag("prescale", -1));
    ValueId y = b.add1(std::make_shared<HostSyncingOp>(), {x});
    b.clear_tag();
    return y;
  };
}

}  // namespace

TEST_CASE("segmented graph: every scope equals eager, a graph captured once per segment", "[cuda][graph][scope]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const TaggedMlp m = cuda_mlp();
  auto program = tagged_inference(m);
  const int steps = 5;
  const auto feeds = tagged_batches(m, steps, /*with_target=*/false);
  struct Expected {
    const char* scope;
    int graphs;
  };
  for (bool pool_per_graph : {false, true}) {
    for (const Expected& e : {Expected{"full", 1}, Expected{"layer", 2}, Expected{"attention-out", 2},
                              Expected{"modules=fc", 2}, Expected{"auto", 1}}) {
      CAPTURE(e.scope, pool_per_graph);
      ModelStore store;
      init_tagged_params(store, m);
      Engine engine(store);
      auto eager = make_executor(ExecutorKind::kEager, engine, Policy::inference());
      auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference(), scoped(e.scope, pool_per_graph));
      void* output_buffer = nullptr;
      for (int step = 0; step < steps; ++step) {
        CAPTURE(step);
        const Feed& feed = feeds[static_cast<std::size_t>(step)];
        const at::Tensor expected = eager->run(program, feed).at(0).clone();
        const at::Tensor y = graph->run(program, feed).at(0);
        CHECK(tensors_close(y, expected, 1e-5, 1e-6));
        if (step == 0) output_buffer = y.data_ptr();
        CHECK(y.data_ptr() == output_buffer);
      }
      const Counters& c = engine.counters();
      CHECK(graph->graphs_per_step() == e.graphs);
      CHECK(c.captures == e.graphs);
      CHECK(c.replays == static_cast<std::int64_t>(e.graphs) * steps);
      CHECK(c.graph_cache_entries == 1);
      CHECK(c.graph_cache_hits == static_cast<std::int64_t>(e.graphs) * (steps - 1));
      CHECK(c.capture_failures == 0);
      CHECK(graph->graph_facts().size() == static_cast<std::size_t>(e.graphs));
      CHECK(graph->total_capture_ms() > 0.0);
      CHECK(graph->fallback_reasons().empty());
    }
  }
}

TEST_CASE("segmented graph: training across segments follows eager's params", "[cuda][graph][scope][train]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const TaggedMlp m = cuda_mlp();
  const int steps = 20;
  const auto feeds = tagged_batches(m, steps, /*with_target=*/true);
  auto program = tagged_training(m);
  ModelStore initial;
  init_tagged_params(initial, m);
  ModelStore reference = initial.clone();
  const std::vector<float> eager_losses = eager_training_losses(program, reference, feeds);
  // fwd-bwd: forward and backward one graph, the optimizer eager. layer: prescale eager, then a
  // graph per layer and one for the loss and backward op (autograd across three graphs), the
  // optimizer eager.
  struct Expected {
    const char* scope;
    int graphs;
  };
  for (bool pool_per_graph : {false, true}) {
    for (const Expected& e : {Expected{"fwd-bwd", 1}, Expected{"layer", 3}}) {
      CAPTURE(e.scope, pool_per_graph);
      ModelStore store = initial.clone();
      void* const weight_buffer = store.at("fc1.weight").data_ptr();
      Engine engine(store);
      auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::train(), scoped(e.scope, pool_per_graph));
      std::vector<float> losses;
      for (const Feed& feed : feeds) losses.push_back(graph->run(program, feed).at(0).item<float>());
      for (int step = 0; step < steps; ++step) {
        CAPTURE(step);
        CHECK(losses[static_cast<std::size_t>(step)] ==
              Approx(eager_losses[static_cast<std::size_t>(step)]).epsilon(1e-4).margin(1e-6));
      }
      for (const std::string& name : tagged_param_names()) {
        CAPTURE(name);
        INFO("max |diff| " << max_abs_diff(store.at(name), reference.at(name)));
        CHECK(tensors_close(store.at(name), reference.at(name), 1e-4, 1e-5));
      }
      CHECK(store.at("fc1.weight").data_ptr() == weight_buffer);
      CHECK_FALSE(tensors_close(store.at("fc1.weight"), initial.at("fc1.weight"), 1e-4, 1e-5));  // it trained
      const Counters& c = engine.counters();
      CHECK(graph->graphs_per_step() == e.graphs);
      CHECK(c.captures == e.graphs);
      CHECK(c.replays == static_cast<std::int64_t>(e.graphs) * steps);
      CHECK(c.capture_failures == 0);
    }
  }
}

TEST_CASE("segmented graph: a value an eager op allocates between two graphs crosses through a fixed buffer",
          "[cuda][graph][scope]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const TaggedMlp m = cuda_mlp();
  // layer 0: fc1 and act; then log_softmax outside any layer (eager, a new tensor every step),
  // read by layer 1's fc2.
  Builder b("crossing");
  ValueId x = b.input("x", fspec({m.batch, m.in}, m.device));
  const std::vector<ValueId> p = tagged_params(b, m);
  b.set_tag(module_tag("layers.0.fc1", 0));
  ValueId h = ops::relu(b, ops::linear(b, x, p[0], p[1]));
  b.set_tag(module_tag("between", -1));
  h = ops::log_softmax(b, h, 1);
  b.set_tag(module_tag("layers.1.fc2", 1));
  b.output("y", ops::linear(b, h, p[2], p[3]));
  auto program = b.build();

  ModelStore store;
  init_tagged_params(store, m);
  Engine engine(store);
  auto eager = make_executor(ExecutorKind::kEager, engine, Policy::inference());
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference(), scoped("layer"));
  const int steps = 6;
  const auto feeds = tagged_batches(m, steps, false, 29);
  for (const Feed& feed : feeds) {
    const at::Tensor expected = eager->run(program, feed).at(0).clone();
    CHECK(tensors_close(graph->run(program, feed).at(0), expected, 1e-5, 1e-6));
  }
  const auto segments = graph->segments();
  REQUIRE(segments.size() == 3);
  CHECK(segments[1].name == "between layer 0 and 1 (eager)");
  CHECK(graph->graphs_per_step() == 2);
  // One copy in the capture's walk, then one a step.
  CHECK(engine.counters().crossing_copies == steps + 1);
  CHECK(engine.counters().captures == 2);
  CHECK(engine.counters().replays == 2 * steps);
}

TEST_CASE("segmented graph: auto runs the op that syncs with the host eagerly and captures the rest",
          "[cuda][graph][scope][capture]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const TaggedMlp m = cuda_mlp();
  SECTION("inference") {
    auto program = tagged_inference(m, host_syncing_first(), "host_sync_inference");
    ModelStore store;
    init_tagged_params(store, m);
    Engine engine(store);
    auto eager = make_executor(ExecutorKind::kEager, engine, Policy::inference());
    auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference(), scoped("auto"));
    for (const Feed& feed : tagged_batches(m, 4, false)) {
      const at::Tensor expected = eager->run(program, feed).at(0).clone();
      CHECK(tensors_close(graph->run(program, feed).at(0), expected, 1e-5, 1e-6));
    }
    const auto segments = graph->segments();
    REQUIRE(segments.size() == 2);
    CHECK_FALSE(segments[0].captured);
    CHECK(segments[0].first_op == 0);
    CHECK(segments[0].end_op == 1);
    CHECK(segments[1].captured);
    CHECK(graph->graphs_per_step() == 1);
    CHECK(engine.counters().capture_failures == 1);
    CHECK(engine.counters().captures == 1);
    CHECK(engine.counters().replays == 4);
    const auto reasons = graph->fallback_reasons();
    REQUIRE(reasons.size() == 1);
    CHECK_THAT(reasons[0], GB_CONTAINS("#0 host_syncing_add runs eagerly"));
    CHECK_THAT(reasons[0], GB_CONTAINS("synchroniz"));
  }
  SECTION("training: params follow eager's") {
    auto program = tagged_training(m, host_syncing_first(), "host_sync_training");
    const int steps = 10;
    const auto feeds = tagged_batches(m, steps, true);
    ModelStore initial;
    init_tagged_params(initial, m);
    ModelStore reference = initial.clone();
    {
      Engine engine(reference);
      auto eager = make_executor(ExecutorKind::kEager, engine, Policy::train());
      for (const Feed& feed : feeds) eager->run(program, feed);
    }
    ModelStore store = initial.clone();
    Engine engine(store);
    auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::train(), scoped("auto"));
    for (const Feed& feed : feeds) graph->run(program, feed);
    for (const std::string& name : tagged_param_names()) {
      CAPTURE(name);
      CHECK(tensors_close(store.at(name), reference.at(name), 1e-4, 1e-5));
    }
    CHECK(graph->graphs_per_step() == 1);
    CHECK(engine.counters().capture_failures == 1);
    CHECK(engine.counters().replays == steps);
    // The whole step would not capture: the full scope fails on it.
    ModelStore other = initial.clone();
    Engine full_engine(other);
    auto full = make_executor(ExecutorKind::kGraph, full_engine, Policy::train());
    CHECK_THROWS_AS(full->run(program, feeds[0]), CaptureError);
  }
}

TEST_CASE("segmented graph: a value autograd tracks, made eagerly after the step, crosses into a graph",
          "[cuda][graph][scope][train]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const TaggedMlp m = cuda_mlp();
  auto program = loss_after_step(m);
  const auto feeds = tagged_batches(m, 6, true);
  ModelStore initial;
  init_tagged_params(initial, m);
  ModelStore reference = initial.clone();
  ModelStore store = initial.clone();
  Engine eager_engine(reference);
  Engine engine(store);
  auto eager = make_executor(ExecutorKind::kEager, eager_engine, Policy::train());
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::train(), scoped("auto"));
  for (const Feed& feed : feeds) {
    const at::Tensor expected = eager->run(program, feed).at(0).clone();
    const std::vector<at::Tensor> got = graph->run(program, feed);
    CHECK(tensors_close(got.at(0), expected, 1e-4, 1e-5));
    CHECK(tensors_close(got.at(0), got.at(1) * 2.0 + 1.0, 1e-5, 1e-6));
  }
  CHECK(graph->graphs_per_step() == 2);  // the step, then the + 1
  CHECK(engine.counters().capture_failures == 0);
  for (const char* name : {"fc1.weight", "fc2.bias"}) {
    CAPTURE(name);
    CHECK(tensors_close(store.at(name), reference.at(name), 1e-4, 1e-5));
  }
}

TEST_CASE("segmented graph: a scope that captures nothing fails before any capture", "[cuda][graph][scope][errors]") {
  GRAPHBENCH_REQUIRE_CUDA();
  auto program = gelu_program({256, 64}, at::kCUDA);
  ModelStore store;
  Engine engine(store);
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference(), scoped("layer"));
  const at::Tensor x = cuda_randn({256, 64}, 3);
  CHECK_THROWS_AS(graph->run(program, Feed{{"x", x}}), InputError);
  CHECK(engine.counters().captures == 0);
  CHECK(engine.counters().capture_failures == 0);
}
