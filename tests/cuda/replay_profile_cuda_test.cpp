// On the GPU: the replay alone (a feed of the graph's own buffers), what a captured graph is made
// of (kernel nodes, private pool), LibTorch's profiler seeing the kernels of eager steps and of
// replays, the memory probe around a block, and the step timer's issue time and cold L2 mode.
// Every case starts with GRAPHBENCH_REQUIRE_CUDA(): without a GPU it is skipped with a message.
#include "engine/engine_test_util.h"
#include "support/cuda_skip.h"

#include "graphbench/engine/timing/device_memory.h"
#include "graphbench/engine/timing/kernel_profile.h"
#include "graphbench/engine/timing/step_timer.h"

using namespace graphbench;
using namespace graphbench::test_util;

TEST_CASE("graph executor: a feed of its own buffers replays without a copy and reads what they hold",
          "[cuda][graph][replay]") {
  GRAPHBENCH_REQUIRE_CUDA();
  auto program = gelu_program({64, 128}, at::kCUDA);
  ModelStore store;
  Engine engine(store);
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference());
  const at::Tensor x = cuda_randn({64, 128}, 3);
  graph->step(program, Feed{{"x", x}});
  const auto bound = graph->bound_inputs(program, Feed{{"x", x}});
  REQUIRE(bound.has_value());
  const at::Tensor buffer = bound->at("x");
  for (int i = 0; i < 10; ++i) {
    const at::Tensor next = cuda_randn({64, 128}, 100 + static_cast<std::uint64_t>(i));
    buffer.copy_(next);  // the caller writes its next input straight into the graph's buffer
    graph->step(program, *bound);
    CHECK(tensors_close(graph->outputs().at(0), gelu_reference(next)));
  }
  const Counters& c = engine.counters();
  CHECK(c.captures == 1);
  CHECK(c.replays == 11);
  CHECK(c.feed_copies == 1);
  CHECK(c.feed_copies_skipped == 10);
}

TEST_CASE("graph facts: kernel nodes counted from the graph, private pools measured", "[cuda][graph][facts]") {
  GRAPHBENCH_REQUIRE_CUDA();
  SECTION("GELU: five kernels, outputs preallocated") {
    auto program = gelu_program({64, 128}, at::kCUDA);
    ModelStore store;
    Engine engine(store);
    auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference());
    graph->step(program, Feed{{"x", cuda_randn({64, 128}, 1)}});
    const auto facts = graph->graph_facts();
    REQUIRE(facts.size() == 1);
    REQUIRE(facts[0].kernel_nodes.has_value());  // LibTorch 2.11 keeps the graph
    CHECK(*facts[0].kernel_nodes == 5);
    CHECK(facts[0].nodes.value_or(0) >= 5);
    CHECK(facts[0].pool_reserved_bytes.has_value());
  }
  SECTION("a training step: backward allocates inside the capture, so its pool holds memory") {
    const Regression r = [] {
      Regression reg;
      reg.batch = 64;
      reg.in = 32;
      reg.out = 8;
      reg.device = at::Device(at::kCUDA);
      return reg;
    }();
    ops::SgdOptions sgd;
    sgd.lr = 0.02;
    auto program = train_program(r, sgd_steps(sgd), "facts_train");
    ModelStore store;
    init_params(store, r);
    Engine engine(store);
    auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::train());
    const auto batches = make_batches(r, 1);
    graph->step(program, feed_of(batches[0]));
    const auto facts = graph->graph_facts();
    REQUIRE(facts.size() == 1);
    REQUIRE(facts[0].pool_reserved_bytes.has_value());
    CHECK(*facts[0].pool_reserved_bytes > 0);
    CHECK(facts[0].pool_allocated_bytes.value_or(0) <= *facts[0].pool_reserved_bytes);
    CHECK(facts[0].kernel_nodes.value_or(0) > 3);
  }
}

TEST_CASE("kernel profile: the profiler sees an eager step's kernels and a replay's, and the feed's copy",
          "[cuda][profile]") {
  GRAPHBENCH_REQUIRE_CUDA();
  REQUIRE(kernel_profiler_available(true));
  auto program = gelu_program({64, 128}, at::kCUDA);
  const at::Tensor x = cuda_randn({64, 128}, 9);
  ModelStore store;
  Engine engine(store);
  auto eager = make_executor(ExecutorKind::kEager, engine, Policy::inference());
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference());
  graph->step(program, Feed{{"x", x}});
  const Feed bound = *graph->bound_inputs(program, Feed{{"x", x}});

  const auto eager_profile = profile_kernels([&] { eager->step(program, Feed{{"x", x}}); }, 10, true);
  REQUIRE(eager_profile.has_value());
  CHECK(eager_profile->steps == 10);
  CHECK(eager_profile->kernels_per_step == Approx(5.0));
  CHECK(eager_profile->copies_per_step == Approx(0.0));
  CHECK(eager_profile->busy_us_per_step > 0.0);
  CHECK_FALSE(eager_profile->kernels.empty());

  // CUPTI reports the kernels inside a graph replay one by one, though it drops some replays' records
  // at times (CUDA 13.0): the case runner takes such a profile again, and so does this test, up to
  // three times, until it sees `expected` kernels and copies per step.
  const auto replays_profiled = [&](const Feed& feed, int steps, double expected) {
    std::optional<KernelProfile> profile;
    for (int attempt = 0; attempt < 3; ++attempt) {
      profile = profile_kernels([&] { graph->step(program, feed); }, steps, true);
      REQUIRE(profile.has_value());
      if (profile->kernels_per_step + profile->copies_per_step == Approx(expected)) break;
      WARN("attempt " << attempt + 1 << ": the profiler saw " << profile->kernels_per_step << " kernels and "
                      << profile->copies_per_step << " copies per replay");
    }
    return *profile;
  };
  const KernelProfile replay_profile = replays_profiled(bound, 10, 5.0);
  CHECK(replay_profile.kernels_per_step == Approx(5.0));
  CHECK(replay_profile.copies_per_step == Approx(0.0));
  CHECK(replay_profile.kernels_per_step == Approx(static_cast<double>(*graph->graph_facts().at(0).kernel_nodes)));

  // Feeding a fresh tensor adds the device copy of the input, outside the graph.
  const KernelProfile feed_profile = replays_profiled(Feed{{"x", x}}, 10, 6.0);
  CHECK(feed_profile.copies_per_step + feed_profile.kernels_per_step == Approx(6.0));

  // Profiling again in the same process works (CUPTI torn down and set up again).
  CHECK(replays_profiled(bound, 3, 5.0).kernels_per_step == Approx(5.0));
}

TEST_CASE("memory probe: a block's peak counts what it allocated above its start", "[cuda][memory]") {
  GRAPHBENCH_REQUIRE_CUDA();
  MemoryProbe probe(true);
  const at::Tensor kept = at::empty({1 << 20}, at::TensorOptions().device(at::kCUDA));  // 4 MiB alive throughout
  probe.begin();
  {
    const at::Tensor transient = at::empty({2 << 20}, at::TensorOptions().device(at::kCUDA));  // 8 MiB
    (void)transient;
  }
  const auto peak = probe.end();
  REQUIRE(peak.has_value());
  CHECK(peak->above_start >= (8 << 20));
  CHECK(peak->peak_allocated >= (12 << 20));
  CHECK(peak->peak_reserved >= peak->peak_allocated);
  // Without CUDA the probe has nothing to say.
  MemoryProbe off(false);
  off.begin();
  CHECK_FALSE(off.end().has_value());
}

TEST_CASE("step timer: the issue time, and a cold L2 that times every step alone", "[cuda][timer]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const at::Tensor x = cuda_randn({1 << 22}, 4);  // 16 MiB
  at::Tensor y = at::empty_like(x);
  for (L2Cache l2 : {L2Cache::kHot, L2Cache::kCold}) {
    CAPTURE(to_string(l2));
    StepTimer timer(true, l2);
    CHECK(timer.times_each_step() == (l2 == L2Cache::kCold));
    const int steps = 20;
    timer.start();
    for (int i = 0; i < steps; ++i) {
      timer.before_step();
      y.copy_(x);
      timer.after_step();
    }
    const StepTime t = timer.stop(steps);
    CHECK(t.device_us > 0.0);
    REQUIRE(t.issue_us.has_value());
    CHECK(*t.issue_us > 0.0);
    CHECK(*t.issue_us <= t.host_us);
    REQUIRE(t.memory.has_value());
  }
}
