// The built-in workloads' ops carry the tags the capture scopes cut by (bench/common/op_tags.h):
// MNIST's training step splits as make_graphed_callables would capture it (fwd-bwd: forward and
// backward, the optimizer eager) and by layer, and the static executor's segmented run of it
// trains exactly as eager does.
#include "graphbench/engine/exec/engine.h"
#include "graphbench/engine/exec/executor.h"
#include "graphbench/engine/plan/segments.h"
#include "mnist/mnist_model.h"
#include "support/catch.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

using namespace graphbench;

namespace {

std::shared_ptr<const Program> small_mnist_step() {
  mnist::TrainProgramOptions options;
  options.batch = 8;
  options.dropout = false;  // comparable with eager step for step
  return mnist::build_train_program(options, at::kCPU);
}

std::vector<std::string> names_of(const std::vector<Segment>& segments) {
  std::vector<std::string> names;
  for (const Segment& s : segments) names.push_back(s.name + (s.captured ? "" : " [eager]"));
  return names;
}

}  // namespace

TEST_CASE("MNIST's training step: fwd-bwd captures forward and backward, the optimizer runs eagerly",
          "[workloads][scope]") {
  auto program = small_mnist_step();
  const auto segments = split_into_segments(*program, parse_capture_scope("fwd-bwd", "test"));
  CHECK(names_of(segments) == std::vector<std::string>{"forward and backward", "optimizer (eager) [eager]"});
  REQUIRE(segments.size() == 2);
  CHECK(segments[1].end_op == program->ops().size());
  for (std::size_t i = segments[1].first_op; i < segments[1].end_op; ++i) CHECK(program->ops()[i].tag.optimizer);
}

TEST_CASE("MNIST's training step: layer gives a graph per conv block and Linear, loss and backward with them",
          "[workloads][scope]") {
  auto program = small_mnist_step();
  const auto segments = split_into_segments(*program, parse_capture_scope("layer", "test"));
  CHECK(names_of(segments) == std::vector<std::string>{"layer 0", "layer 1", "layer 2", "layer 3", "after layer 3",
                                                       "after layer 3 (eager) [eager]"});
  // modules: the two Linears only; the conv blocks, which autograd ties to them, are captured too.
  const auto fc = split_into_segments(*program, parse_capture_scope("modules=^fc", "test"));
  REQUIRE_FALSE(fc.empty());
  CHECK(captured_count(fc) >= 1);
  CHECK_FALSE(fc.back().captured);  // the optimizer
}

TEST_CASE("MNIST's training step run by segments on the CPU trains as eager does", "[workloads][scope][train]") {
  auto program = small_mnist_step();
  auto gen = at::detail::createCPUGenerator(3);
  std::vector<Feed> feeds;
  for (int i = 0; i < 3; ++i) {
    feeds.push_back(Feed{{"x", at::randn({8, 1, 28, 28}, gen)}, {"y", at::randint(0, 10, {8}, gen)}});
  }
  at::manual_seed(1);
  const ModelStore initial = mnist::initial_store(at::kCPU);
  ModelStore reference = initial.clone();
  {
    Engine engine(reference);
    auto eager = make_executor(ExecutorKind::kEager, engine, Policy::train());
    for (const Feed& feed : feeds) eager->run(program, feed);
  }
  for (const char* scope : {"fwd-bwd", "layer"}) {
    CAPTURE(scope);
    ModelStore store = initial.clone();
    Engine engine(store);
    ExecutorOptions options;
    options.scope = parse_capture_scope(scope, "test");
    auto segmented = make_executor(ExecutorKind::kStatic, engine, Policy::train(), options);
    for (const Feed& feed : feeds) segmented->run(program, feed);
    CHECK(segmented->segments().size() >= 2);
    for (const std::string& name : mnist::param_names()) {
      CAPTURE(name);
      CHECK(at::allclose(store.at(name), reference.at(name), 1e-4, 1e-6));
    }
    CHECK_FALSE(at::allclose(store.at("fc2.weight"), initial.at("fc2.weight"), 1e-6, 1e-8));
  }
}
