// The op that runs a training step's AOTInductor package (engine/ops/aoti_training_step.h), with a step
// function written here standing in for the package (the CPU build has no package loader): the
// state it updates is the model store's, so it accumulates from step to step, eager and on the
// fixed buffers alike; a package that returns its new state has it copied into the same buffers;
// building the program runs the step once on a copy of the state, which stays as it was.
#include "engine/engine_test_util.h"
#include "support/cuda_skip.h"

#include "graphbench/engine/ops/aoti_training_step.h"

using namespace graphbench;
using namespace graphbench::test_util;

namespace {

constexpr double kRate = 0.5;

// A stand-in for a compiled step: loss = sum(x * w); w -= rate * x (its gradient); count += 1.
// In place, as a package that writes into its state inputs, or returning the new state after the
// loss. Counts its calls.
struct FakeStep {
  bool returns_state = false;
  std::shared_ptr<int> calls = std::make_shared<int>(0);

  std::vector<at::Tensor> operator()(const std::vector<at::Tensor>& in) const {
    ++*calls;
    const at::Tensor& x = in.at(0);
    const at::Tensor& w = in.at(1);
    const at::Tensor& count = in.at(2);
    at::Tensor loss = (x * w).sum();
    if (returns_state) return {loss, w - kRate * x, count + 1};
    w.sub_(kRate * x);
    count.add_(1);
    return {loss};
  }
};

struct StepProgram {
  std::shared_ptr<const Program> program;
  ModelStore store;
  at::Tensor x;
};

StepProgram step_program(FakeStep step, at::Device device = at::kCPU) {
  StepProgram p;
  p.x = at::arange(4, at::TensorOptions().dtype(at::kFloat)).to(device);
  p.store.set("w", at::ones({4}, at::TensorOptions().device(device)));
  p.store.set("count", at::zeros({}, at::TensorOptions().device(device)));
  ops::AotiTrainingCall call;
  call.run = step;
  call.example_inputs = {p.x};
  call.example_state = {p.store.at("w"), p.store.at("count")};
  call.state_returned = step.returns_state;
  call.label = "fake.pt2";
  Builder b("fake_train");
  const ValueId x = b.input("x", spec_of(p.x));
  const ValueId w = b.param("w", spec_of(p.store.at("w")));
  const ValueId count = b.state("count", spec_of(p.store.at("count")));
  b.output("loss", ops::aoti_training_step(b, std::move(call), {x}, {w, count}));
  p.program = b.build();
  return p;
}

// w after `steps` steps from ones, and the loss of step `step` (from 1).
at::Tensor expected_w(const at::Tensor& x, int steps) { return at::ones({4}) - kRate * steps * x.cpu(); }
float expected_loss(const at::Tensor& x, int step) { return (x.cpu() * expected_w(x, step - 1)).sum().item<float>(); }

void check_three_steps(ExecutorKind kind, bool returns_state, at::Device device = at::kCPU) {
  FakeStep step;
  step.returns_state = returns_state;
  StepProgram p = step_program(step, device);
  // Building ran the step once, on a copy of the state.
  CHECK(*step.calls == 1);
  CHECK(tensors_close(p.store.at("w"), at::ones({4})));
  CHECK(p.store.at("count").item<float>() == 0.0F);
  Engine engine(p.store);
  auto executor = make_executor(kind, engine, Policy::train());
  for (int s = 1; s <= 3; ++s) {
    const auto outputs = executor->run(p.program, Feed{{"x", p.x}});
    CHECK(outputs.at(0).item<float>() == Approx(expected_loss(p.x, s)));
  }
  CHECK(tensors_close(p.store.at("w"), expected_w(p.x, 3)));
  CHECK(p.store.at("count").item<float>() == 3.0F);
  if (kind == ExecutorKind::kGraph) CHECK(executor->graph_facts().size() == 1);  // one capture, replayed
}

}  // namespace

TEST_CASE("aoti training step: the state updated in place accumulates in the store, eager and on fixed buffers") {
  check_three_steps(ExecutorKind::kEager, /*returns_state=*/false);
  check_three_steps(ExecutorKind::kStatic, false);
}

TEST_CASE("aoti training step: a package that returns its new state has it copied into the store's buffers") {
  check_three_steps(ExecutorKind::kEager, /*returns_state=*/true);
  check_three_steps(ExecutorKind::kStatic, true);
}

TEST_CASE("aoti training step: the state's buffers stay the store's own (the op updates them in place)") {
  StepProgram p = step_program(FakeStep{});
  const void* w = p.store.at("w").data_ptr();
  const void* count = p.store.at("count").data_ptr();
  Engine engine(p.store);
  auto executor = make_executor(ExecutorKind::kStatic, engine, Policy::train());
  executor->run(p.program, Feed{{"x", p.x}});
  CHECK(p.store.at("w").data_ptr() == w);
  CHECK(p.store.at("count").data_ptr() == count);
}

TEST_CASE("aoti training step: a package that returns the wrong number of tensors is an error naming it") {
  ops::AotiTrainingCall call;
  call.run = [](const std::vector<at::Tensor>& in) { return std::vector<at::Tensor>{in.at(0).sum(), in.at(0)}; };
  call.example_inputs = {at::ones({4})};
  call.example_state = {at::ones({4})};
  call.label = "two.pt2";
  Builder b("wrong_count");
  const ValueId x = b.input("x", spec_of(call.example_inputs[0]));
  const ValueId w = b.param("w", spec_of(call.example_state[0]));
  CHECK(engine_error_of([&] { ops::aoti_training_step(b, call, {x}, {w}); }) ==
        "package two.pt2 returned 2 tensors, expected 1 (the loss)");
  call.state_returned = true;
  call.run = [](const std::vector<at::Tensor>& in) { return std::vector<at::Tensor>{in.at(0).sum(), in.at(0).sum()}; };
  Builder b2("wrong_spec");
  const ValueId x2 = b2.input("x", spec_of(call.example_inputs[0]));
  const ValueId w2 = b2.param("w", spec_of(call.example_state[0]));
  CHECK(engine_error_of([&] { ops::aoti_training_step(b2, call, {x2}, {w2}); }) ==
        "package two.pt2 returned float32[] on cpu as state 0, which is float32[4] on cpu");
}

TEST_CASE("aoti training step: captured once, each replay trains", "[cuda][graph][train]") {
  GRAPHBENCH_REQUIRE_CUDA();
  check_three_steps(ExecutorKind::kGraph, /*returns_state=*/false, at::Device(at::kCUDA));
  check_three_steps(ExecutorKind::kGraph, /*returns_state=*/true, at::Device(at::kCUDA));
}
