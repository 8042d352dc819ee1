// The engine's plan cache, graph keys, and the checks it makes before and while running:
// compile_cached identity, graph-key equality and bindings per feed signature, the static_roles
// check, feed validation, the in-place alias check, fixed pointers, and the graph executor
// without CUDA.
#include "engine/engine_test_util.h"
#include "graphbench/engine/exec/graph_key.h"
#include "graphbench/engine/plan/compile_cache.h"
#include "support/skip.h"

using namespace graphbench;
using namespace graphbench::test_util;

TEST_CASE("compile_cached: one program is compiled once and always yields the same plan", "[engine][plan]") {
  auto program = gelu_program({4, 8});

  SECTION("CompileCache") {
    CompileCache cache;
    const CompiledProgram& first = cache.compile_cached(program);
    const CompiledProgram& second = cache.compile_cached(program);
    CHECK(cache.compiles() == 1);
    CHECK(cache.hits() == 1);
    CHECK(cache.size() == 1);
    CHECK(&first == &second);
    CHECK(first.plan_key() == second.plan_key());
    CHECK(&first.program() == program.get());

    // Same structure, built separately: another program, another plan.
    auto twin = gelu_program({4, 8});
    REQUIRE(twin->id() != program->id());
    const CompiledProgram& third = cache.compile_cached(twin);
    CHECK(cache.compiles() == 2);
    CHECK(cache.hits() == 1);
    CHECK(&third != &first);
    CHECK(third.plan_key() != first.plan_key());
  }

  SECTION("Engine counters") {
    ModelStore store;
    Engine engine(store);
    const CompiledProgram& first = engine.compile_cached(program);
    const CompiledProgram& second = engine.compile_cached(program);
    CHECK(engine.counters().compiles == 1);
    CHECK(engine.counters().compile_cache_hits == 1);
    CHECK(&first == &second);
    CHECK(first.plan_key() == second.plan_key());

    auto twin = gelu_program({4, 8});
    const CompiledProgram& third = engine.compile_cached(twin);
    CHECK(engine.counters().compiles == 2);
    CHECK(third.plan_key() != first.plan_key());
  }

  SECTION("every executor run goes through the cache") {
    for (ExecutorKind kind : {ExecutorKind::kEager, ExecutorKind::kStatic}) {
      CAPTURE(to_string(kind));
      ModelStore store;
      Engine engine(store);
      auto executor = make_executor(kind, engine, Policy::inference());
      for (int i = 0; i < 5; ++i) executor->run(program, Feed{{"x", at::randn({4, 8})}});
      CHECK(engine.counters().compiles == 1);
      CHECK(engine.counters().compile_cache_hits == 4);
    }
  }
}

TEST_CASE("graph key: equal for the same feed signature, new for a new batch shape", "[engine][graph_key]") {
  auto program = gelu_program({4, 8});
  CompileCache cache;
  const CompiledProgram& compiled = cache.compile_cached(program);

  const GraphKey a = make_graph_key(compiled, Policy::inference(), Feed{{"x", at::randn({4, 8})}});
  const GraphKey b = make_graph_key(compiled, Policy::inference(), Feed{{"x", at::zeros({4, 8})}});
  CHECK(a == b);
  CHECK_FALSE(a != b);
  CHECK(GraphKeyHash{}(a) == GraphKeyHash{}(b));
  CHECK(a.plan_key == compiled.plan_key());
  REQUIRE(a.feed_signature.size() == 1);
  CHECK(a.feed_signature[0].name == "x");
  CHECK(a.feed_signature[0].spec == fspec({4, 8}));

  const GraphKey short_batch = make_graph_key(compiled, Policy::inference(), Feed{{"x", at::randn({3, 8})}});
  CHECK(short_batch != a);
  CHECK(short_batch.feed_signature[0].spec.shape == std::vector<std::int64_t>{3, 8});

  const GraphKey as_double = make_graph_key(compiled, Policy::inference(), Feed{{"x", at::randn({4, 8}, at::kDouble)}});
  CHECK(as_double != a);

  // The mode and the role sets are part of the key.
  const GraphKey train = make_graph_key(compiled, Policy::train(), Feed{{"x", at::randn({4, 8})}});
  CHECK(train != a);
}

TEST_CASE("static executor: a new feed shape is a new binding beside the old one", "[engine][graph_key]") {
  auto program = gelu_program({4, 8});
  ModelStore store;
  Engine engine(store);
  auto executor = make_executor(ExecutorKind::kStatic, engine, Policy::inference());
  const at::Tensor x4 = at::randn({4, 8});
  const at::Tensor x3 = at::randn({3, 8});

  auto y4 = executor->run(program, Feed{{"x", x4}}).at(0);
  void* const y4_ptr = y4.data_ptr();
  CHECK(engine.counters().bindings == 1);
  CHECK(tensors_close(y4, gelu_reference(x4)));

  auto y3 = executor->run(program, Feed{{"x", x3}}).at(0);
  CHECK(engine.counters().bindings == 2);
  CHECK(y3.sizes() == at::IntArrayRef({3, 8}));
  CHECK(tensors_close(y3, gelu_reference(x3)));

  // Back to the first shape: the first binding is reused (same output slot), nothing new is bound.
  const at::Tensor x4b = at::randn({4, 8});
  auto y4b = executor->run(program, Feed{{"x", x4b}}).at(0);
  CHECK(engine.counters().bindings == 2);
  CHECK(y4b.data_ptr() == y4_ptr);
  CHECK(tensors_close(y4b, gelu_reference(x4b)));
  // And the second one too.
  executor->run(program, Feed{{"x", x3}});
  CHECK(engine.counters().bindings == 2);
  CHECK(engine.counters().compiles == 1);
  CHECK(engine.counters().static_runs == 4);
}

TEST_CASE("static_roles must hold the role of every external, checked before anything runs", "[engine][policy]") {
  Regression r;
  ops::SgdOptions sgd;
  sgd.lr = 0.1;
  sgd.momentum = 0.9;
  auto program = train_program(r, sgd_steps(sgd));
  ModelStore store;
  init_params(store, r);
  const at::Tensor w_before = store.at(kWeight).clone();
  auto batches = make_batches(r, 1);

  // A train policy that forgot the optimizer state.
  Policy no_state{Mode::kTrain, {Role::kInput, Role::kParam}, {Role::kInput}};
  Engine engine(store);

  SECTION("static executor") {
    auto executor = make_executor(ExecutorKind::kStatic, engine, no_state);
    const std::string message = engine_error_of([&] { executor->run(program, feed_of(batches[0])); });
    CHECK_THAT(message, GB_CONTAINS("\"fc.weight.momentum_buffer\""));
    CHECK_THAT(message, GB_CONTAINS("role state"));
    CHECK_THAT(message, GB_CONTAINS("static_roles"));
  }
  SECTION("graph executor: the role check comes before any capture") {
    auto executor = make_executor(ExecutorKind::kGraph, engine, no_state);
    const std::string message = engine_error_of([&] { executor->run(program, feed_of(batches[0])); });
    CHECK_THAT(message, GB_CONTAINS("\"fc.weight.momentum_buffer\""));
    CHECK_THAT(message, GB_CONTAINS("static_roles"));
    CHECK(engine.counters().captures == 0);
    CHECK(engine.counters().capture_failures == 0);
  }
  SECTION("inference policy on a program with params: the param is named") {
    Policy inputs_only{Mode::kInference, {Role::kInput}, {Role::kInput}};
    auto executor = make_executor(ExecutorKind::kStatic, engine, inputs_only);
    const std::string message = engine_error_of([&] { executor->run(program, feed_of(batches[0])); });
    CHECK_THAT(message, GB_CONTAINS("\"fc.weight\""));
    CHECK_THAT(message, GB_CONTAINS("role param"));
    CHECK_THAT(message, GB_CONTAINS("static_roles"));
  }
  // Nothing ran, nothing was bound or created.
  CHECK(engine.counters().static_runs == 0);
  CHECK(engine.counters().warmup_runs == 0);
  CHECK(engine.counters().bindings == 0);
  CHECK_FALSE(store.contains("fc.weight.momentum_buffer"));
  CHECK_FALSE(store.contains("sgd.lr"));
  CHECK(store.at(kWeight).equal(w_before));
}

TEST_CASE("feed validation names the offending value, in every executor and on every run", "[engine][feed]") {
  auto program = gelu_program({4, 8}, at::kCPU, "pixels");
  const at::Tensor good = at::randn({4, 8});

  for (ExecutorKind kind : {ExecutorKind::kEager, ExecutorKind::kStatic}) {
    CAPTURE(to_string(kind));
    for (bool after_a_good_run : {false, true}) {
      CAPTURE(after_a_good_run);
      ModelStore store;
      Engine engine(store);
      auto executor = make_executor(kind, engine, Policy::inference());
      if (after_a_good_run) executor->run(program, Feed{{"pixels", good}});

      CHECK_THAT(engine_error_of([&] { executor->run(program, Feed{{"pixels", good}, {"bogus_value", good}}); }),
                 GB_CONTAINS("\"bogus_value\""));
      CHECK_THAT(engine_error_of([&] { executor->run(program, Feed{}); }), GB_CONTAINS("lacks input \"pixels\""));
      CHECK_THAT(engine_error_of([&] { executor->run(program, Feed{{"pixels", good.to(at::kDouble)}}); }),
                 GB_CONTAINS("\"pixels\""));
      CHECK_THAT(engine_error_of([&] { executor->run(program, Feed{{"pixels", good.to(at::kDouble)}}); }),
                 GB_CONTAINS("float64"));
      CHECK_THAT(engine_error_of([&] { executor->run(program, Feed{{"pixels", at::randn({32})}}); }),
                 GB_CONTAINS("\"pixels\""));
      // Still usable afterwards.
      auto y = executor->run(program, Feed{{"pixels", good}}).at(0);
      CHECK(tensors_close(y, gelu_reference(good)));
    }
  }
}

namespace {

// Declares an in-place output but replaces it with a fresh tensor: the bug the alias check catches.
class RebindingIncrement final : public Op {
 public:
  std::string signature() const override { return "rebinding_increment"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 1);
    return {in[0]};
  }
  std::vector<std::pair<int, int>> in_place() const override { return {{0, 0}}; }
  bool differentiable() const override { return false; }
  void run(OpIO& io) const override { io.out(0) = io.in(0) + 1; }
};

// The same update done right: into the slot it shares with its input.
class InPlaceIncrement final : public Op {
 public:
  std::string signature() const override { return "in_place_increment"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 1);
    return {in[0]};
  }
  std::vector<std::pair<int, int>> in_place() const override { return {{0, 0}}; }
  bool differentiable() const override { return false; }
  void run(OpIO& io) const override { io.out(0).add_(1); }
};

std::shared_ptr<const Program> counter_program(std::shared_ptr<const Op> op) {
  Builder b("counter");
  ValueId counter = b.state("step_counter", fspec({4}), 0.0);
  b.output("counter", b.add1(std::move(op), {counter}, "step_counter'"));
  return b.build();
}

}  // namespace

TEST_CASE("alias check: an op that rebinds its in-place output is named, a correct one keeps the pointer",
          "[engine][alias]") {
  for (ExecutorKind kind : {ExecutorKind::kEager, ExecutorKind::kStatic}) {
    CAPTURE(to_string(kind));
    {
      auto program = counter_program(std::make_shared<RebindingIncrement>());
      ModelStore store;
      Engine engine(store);
      auto executor = make_executor(kind, engine, Policy::train());
      const std::string message = engine_error_of([&] { executor->run(program, Feed{}); });
      CHECK_THAT(message, GB_CONTAINS("rebinding_increment"));
      CHECK_THAT(message, GB_CONTAINS("rebound its in-place output"));
      CHECK_THAT(message, GB_CONTAINS("step_counter"));
    }
    {
      auto program = counter_program(std::make_shared<InPlaceIncrement>());
      ModelStore store;
      store.set("step_counter", at::zeros({4}));
      void* const buffer = store.at("step_counter").data_ptr();
      Engine engine(store);
      auto executor = make_executor(kind, engine, Policy::train());
      for (int i = 1; i <= 3; ++i) {
        auto out = executor->run(program, Feed{}).at(0);
        CHECK(out.data_ptr() == buffer);
        CHECK(store.at("step_counter").data_ptr() == buffer);
        CHECK(store.at("step_counter").equal(at::full({4}, static_cast<float>(i))));
      }
    }
  }
}

TEST_CASE("check_fixed_pointers: replacing a bound param in the store stops the next static run",
          "[engine][pointers]") {
  Regression r;
  auto program = eval_program(r);
  ModelStore store;
  init_params(store, r);
  Engine engine(store);
  auto executor = make_executor(ExecutorKind::kStatic, engine, Policy::inference());
  const at::Tensor x = at::randn({r.batch, r.in});
  executor->run(program, Feed{{"x", x}});
  executor->run(program, Feed{{"x", x}});

  store.set(kBias, store.at(kBias).clone());  // same values, another buffer
  const std::string message = engine_error_of([&] { executor->run(program, Feed{{"x", x}}); });
  CHECK_THAT(message, GB_CONTAINS("\"fc.bias\""));
  CHECK_THAT(message, GB_CONTAINS("no longer has the buffer it was bound to"));
  CHECK(engine.counters().static_runs == 2);
}

TEST_CASE("graph executor without CUDA: an EngineError that says so, not a crash", "[engine][graph][may-skip]") {
  if (cuda_graphs_available()) GRAPHBENCH_SKIP("this build has CUDA graphs; the [cuda] tests cover the graph executor");
  auto program = gelu_program({4, 8});
  for (bool fallback : {false, true}) {
    CAPTURE(fallback);
    ModelStore store;
    Engine engine(store);
    ExecutorOptions options;
    options.fallback_to_eager = fallback;
    auto executor = make_executor(ExecutorKind::kGraph, engine, Policy::inference(), options);
    REQUIRE(executor->kind() == ExecutorKind::kGraph);
    const std::string message = engine_error_of([&] { executor->run(program, Feed{{"x", at::randn({4, 8})}}); });
    CHECK_THAT(message, GB_CONTAINS("CUDA"));
    CHECK(engine.counters().replays == 0);
    CHECK(engine.counters().captures == 0);
  }
}
