// The lean step path shared by the static and graph executors, on the CPU through the static
// executor (the graph executor runs the same binding code, [cuda] tests cover its replay): step()
// and outputs(), a feed of the bound buffers that copies nothing, and the graph key that still
// tells shapes apart.
#include "engine/engine_test_util.h"

#include "graphbench/engine/runner/engine_runner.h"

using namespace graphbench;
using namespace graphbench::test_util;

TEST_CASE("executors: step() leaves the outputs readable, run() returns a copy of the list", "[engine][replay]") {
  auto program = gelu_program({4, 8});
  const at::Tensor x = at::randn({4, 8});
  for (ExecutorKind kind : {ExecutorKind::kEager, ExecutorKind::kStatic}) {
    CAPTURE(to_string(kind));
    ModelStore store;
    Engine engine(store);
    auto executor = make_executor(kind, engine, Policy::inference());
    CHECK(executor->outputs().empty());
    executor->step(program, Feed{{"x", x}});
    REQUIRE(executor->outputs().size() == 1);
    CHECK(tensors_close(executor->outputs()[0], gelu_reference(x)));
    const std::vector<at::Tensor> copy = executor->run(program, Feed{{"x", x * 2}});
    REQUIRE(copy.size() == 1);
    CHECK(tensors_close(copy[0], gelu_reference(x * 2)));
    CHECK(copy[0].data_ptr() == executor->outputs()[0].data_ptr());
  }
}

TEST_CASE("executors: a feed of the bound buffers copies nothing and computes on what they hold", "[engine][replay]") {
  auto program = gelu_program({4, 8});
  const at::Tensor x = at::randn({4, 8});
  ModelStore store;
  Engine engine(store);
  auto executor = make_executor(ExecutorKind::kStatic, engine, Policy::inference());

  // No binding yet for this signature: nothing to hand out.
  CHECK_FALSE(executor->bound_inputs(program, Feed{{"x", x}}).has_value());
  executor->step(program, Feed{{"x", x}});
  CHECK(engine.counters().feed_copies == 1);
  const auto bound = executor->bound_inputs(program, Feed{{"x", x}});
  REQUIRE(bound.has_value());
  REQUIRE(bound->count("x") == 1);
  const at::Tensor buffer = bound->at("x");
  CHECK(buffer.data_ptr() != x.data_ptr());
  CHECK(buffer.equal(x));

  // Writing the next input into the buffer and feeding the buffer: the step is the run alone.
  buffer.copy_(x * 3);
  for (int i = 0; i < 4; ++i) executor->step(program, *bound);
  CHECK(engine.counters().feed_copies == 1);
  CHECK(engine.counters().feed_copies_skipped == 4);
  CHECK(engine.counters().bindings == 1);
  CHECK(tensors_close(executor->outputs()[0], gelu_reference(x * 3)));

  // The key is untouched: another shape is another binding, fed by copy again.
  const at::Tensor short_batch = at::randn({3, 8});
  executor->step(program, Feed{{"x", short_batch}});
  CHECK(engine.counters().bindings == 2);
  CHECK(engine.counters().feed_copies == 2);
  CHECK(tensors_close(executor->outputs()[0], gelu_reference(short_batch)));
  // And the first binding still holds its buffer: back to it without a new binding.
  executor->step(program, *bound);
  CHECK(engine.counters().bindings == 2);
  CHECK(tensors_close(executor->outputs()[0], gelu_reference(x * 3)));
}

TEST_CASE("executors: the single walk over the feed still rejects what it always rejected", "[engine][replay]") {
  auto program = gelu_program({4, 8}, at::kCPU, "pixels");
  const at::Tensor good = at::randn({4, 8});
  ModelStore store;
  Engine engine(store);
  auto executor = make_executor(ExecutorKind::kStatic, engine, Policy::inference());
  executor->step(program, Feed{{"pixels", good}});
  // Names ordered before and after the external's, and an undefined tensor.
  CHECK_THAT(engine_error_of([&] { executor->step(program, Feed{{"a_bogus", good}, {"pixels", good}}); }),
             GB_CONTAINS("\"a_bogus\""));
  CHECK_THAT(engine_error_of([&] { executor->step(program, Feed{{"pixels", good}, {"z_bogus", good}}); }),
             GB_CONTAINS("\"z_bogus\""));
  CHECK_THAT(engine_error_of([&] { executor->step(program, Feed{{"pixels", at::Tensor()}}); }),
             GB_CONTAINS("undefined tensor"));
  CHECK_THAT(engine_error_of([&] { executor->step(program, Feed{}); }), GB_CONTAINS("lacks input \"pixels\""));
  executor->step(program, Feed{{"pixels", good}});
  CHECK(tensors_close(executor->outputs()[0], gelu_reference(good)));
}

TEST_CASE("engine runner: inputs in place copy once, then never again", "[engine][replay]") {
  auto program = gelu_program({4, 8});
  const at::Tensor x = at::randn({4, 8});
  EngineRunnerConfig config;
  config.program = program;
  config.executor = ExecutorKind::kStatic;
  config.feed = {{"x", x}};
  config.input_method = InputMethod::kInPlace;
  EngineRunner runner(std::move(config));
  for (int i = 0; i < 5; ++i) runner.step();
  const auto counters = runner.counters();
  CHECK(counters.at("feed_copies") == 1);
  CHECK(counters.at("feed_copies_skipped") == 4);
  const auto observed = runner.observe();
  REQUIRE(observed.size() == 1);
  CHECK(tensors_close(observed[0], gelu_reference(x)));
}
