// The static executor under capture scopes: the step run segment by segment as the graph executor
// replays it, with the crossing copies, gives eager's numbers (inference and training).
#include "engine/segment_programs.h"

using namespace graphbench;
using namespace graphbench::test_util;

namespace {

ExecutorOptions with_scope(const std::string& text) {
  ExecutorOptions options;
  options.scope = parse_capture_scope(text, "test");
  return options;
}

}  // namespace

TEST_CASE("segmented static: every scope gives eager's outputs, the crossing values copied",
          "[engine][static][scope]") {
  const TaggedMlp m;
  auto program = tagged_inference(m);
  const auto feeds = tagged_batches(m, 4, /*with_target=*/false);
  ModelStore store;
  init_tagged_params(store, m);

  // scope, captured segments, crossing copies (made on the first step only: these eager ops
  // compute into their slot, which holds the fixed buffer from then on)
  struct Expected {
    const char* scope;
    int captured;
    int crossings;
  };
  // layer: prescale (eager) hands x*1.5 to layer 0; the last add reads layer 1's value in place.
  // attention-out: relu (eager) hands its value to fc2's segment.
  // modules=fc: prescale hands to fc1; relu hands to fc2.
  // auto: everything capturable, one segment.
  for (const Expected& e : {Expected{"layer", 2, 1}, Expected{"attention-out", 2, 1}, Expected{"modules=fc", 2, 2},
                            Expected{"auto", 1, 0}}) {
    CAPTURE(e.scope);
    Engine engine(store);
    auto eager = make_executor(ExecutorKind::kEager, engine, Policy::inference());
    auto segmented = make_executor(ExecutorKind::kStatic, engine, Policy::inference(), with_scope(e.scope));
    for (const Feed& feed : feeds) {
      const at::Tensor expected = eager->run(program, feed).at(0).clone();
      const at::Tensor y = segmented->run(program, feed).at(0);
      CHECK(tensors_close(y, expected, 1e-5, 1e-6));
    }
    CHECK(captured_count(segmented->segments()) == e.captured);
    CHECK(engine.counters().crossing_copies == e.crossings);
    CHECK(engine.counters().static_runs == static_cast<std::int64_t>(feeds.size()));
    CHECK(segmented->graphs_per_step() == 0);  // the static executor captures nothing
  }
}

TEST_CASE("segmented static: a value an eager op allocates is copied into its fixed buffer every step",
          "[engine][static][scope]") {
  const TaggedMlp m;
  // log_softmax allocates its output afresh every step: the crossing copy is made every step.
  auto program = tagged_inference(m, [](Builder& b, ValueId x) {
    b.set_tag(module_tag("prescale", -1));
    ValueId y = ops::log_softmax(b, x, 1);
    b.clear_tag();
    return y;
  });
  ModelStore store;
  init_tagged_params(store, m);
  Engine engine(store);
  auto eager = make_executor(ExecutorKind::kEager, engine, Policy::inference());
  auto segmented = make_executor(ExecutorKind::kStatic, engine, Policy::inference(), with_scope("layer"));
  const auto feeds = tagged_batches(m, 3, false);
  for (const Feed& feed : feeds) {
    const at::Tensor expected = eager->run(program, feed).at(0).clone();
    CHECK(tensors_close(segmented->run(program, feed).at(0), expected, 1e-5, 1e-6));
  }
  const auto segments = segmented->segments();
  REQUIRE(segments.size() == 4);
  CHECK(segments[0].name == "before layer 0 (eager)");
  CHECK(segments[1].name == "layer 0");
  CHECK(segments[2].name == "layer 1");
  CHECK(segments[3].name == "after layer 1 (eager)");
  CHECK(engine.counters().crossing_copies == 3);
  CHECK(engine.counters().eager_segment_runs == 6);
}

TEST_CASE("segmented static: training under every scope follows eager's params step for step",
          "[engine][static][scope][train]") {
  const TaggedMlp m;
  const int steps = 6;
  const auto feeds = tagged_batches(m, steps, /*with_target=*/true);
  ModelStore initial;
  init_tagged_params(initial, m);
  ModelStore reference = initial.clone();
  auto program = tagged_training(m);
  const std::vector<float> eager_losses = eager_training_losses(program, reference, feeds);
  // fwd-bwd: forward and backward (with prescale) one segment, optimizer eager. layer: prescale
  // eager (crossing into layer 0), layers 0 and 1, loss and backward captured, optimizer eager.
  // auto with an uncapturable prescale: it runs eagerly, its value crossing into the rest.
  struct Case {
    const char* scope;
    bool capturable_first;
    int crossings;
  };
  for (const Case& c : {Case{"fwd-bwd", true, 0}, Case{"layer", true, 1}, Case{"auto", false, 1},
                        Case{"modules=fc|loss", true, 1}}) {
    CAPTURE(c.scope);
    auto tagged = tagged_training(m, scale_first(c.capturable_first));
    ModelStore store = initial.clone();
    Engine engine(store);
    auto segmented = make_executor(ExecutorKind::kStatic, engine, Policy::train(), with_scope(c.scope));
    for (int step = 0; step < steps; ++step) {
      CAPTURE(step);
      const float loss = segmented->run(tagged, feeds[static_cast<std::size_t>(step)]).at(0).item<float>();
      CHECK(loss == Approx(eager_losses[static_cast<std::size_t>(step)]).epsilon(1e-4).margin(1e-6));
    }
    for (const std::string& name : tagged_param_names()) {
      CAPTURE(name);
      CHECK(tensors_close(store.at(name), reference.at(name), 1e-4, 1e-6));
    }
    CHECK(engine.counters().crossing_copies == c.crossings);  // prescale computes into the fixed buffer after
    CHECK_FALSE(store.at("fc1.weight").equal(initial.at("fc1.weight")));
  }
}

TEST_CASE("segmented static: a scope that captures nothing fails before any step", "[engine][static][scope][errors]") {
  auto program = gelu_program({8, 4});
  ModelStore store;
  Engine engine(store);
  auto segmented = make_executor(ExecutorKind::kStatic, engine, Policy::inference(), with_scope("layer"));
  const std::string message =
      testing::message_of<InputError>([&] { segmented->run(program, Feed{{"x", at::randn({8, 4})}}); });
  CHECK_THAT(message, GB_CONTAINS("capture scope \"layer\" captures nothing in program \"gelu\""));
  CHECK(engine.counters().static_runs == 0);
}

TEST_CASE("segmented static: a value autograd tracks crosses into a graph and keeps its history",
          "[engine][static][scope][train]") {
  const TaggedMlp m;
  auto program = loss_after_step(m);
  const auto feeds = tagged_batches(m, 4, true);
  ModelStore initial;
  init_tagged_params(initial, m);
  ModelStore reference = initial.clone();
  ModelStore store = initial.clone();
  Engine eager_engine(reference);
  Engine engine(store);
  auto eager = make_executor(ExecutorKind::kEager, eager_engine, Policy::train());
  auto segmented = make_executor(ExecutorKind::kStatic, engine, Policy::train(), with_scope("auto"));
  for (const Feed& feed : feeds) {
    const std::vector<at::Tensor> expected = eager->run(program, feed);
    const std::vector<at::Tensor> got = segmented->run(program, feed);
    CHECK(tensors_close(got.at(0), expected.at(0), 1e-5, 1e-6));
    CHECK(tensors_close(got.at(0), got.at(1) * 2.0 + 1.0, 1e-5, 1e-6));
  }
  const auto segments = segmented->segments();
  REQUIRE(segments.size() == 3);
  CHECK_FALSE(segments[1].captured);
  CHECK_THAT(segments[1].name, GB_CONTAINS("stands for a host read"));
  // The doubled loss is made afresh every step (autograd records it): a copy every step.
  CHECK(engine.counters().crossing_copies == static_cast<std::int64_t>(feeds.size()));
  for (const char* name : {"fc1.weight", "fc2.bias"}) CHECK(tensors_close(store.at(name), reference.at(name), 1e-4, 1e-6));
}
