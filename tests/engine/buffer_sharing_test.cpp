// Buffer sharing between a binding's fixed slots: a dead value's buffer serves a later value of
// the same spec, no op ever reads a buffer that was overwritten, outputs survive the step, and
// programs that train keep one buffer per slot.
#include "engine/engine_test_util.h"

#include "graphbench/engine/exec/buffer_sharing.h"

#include <set>

using namespace graphbench;
using namespace graphbench::test_util;

namespace {

// Replays the ops over the shared buffers: every read finds the value it wants in its buffer,
// and every program output is still in its buffer after the last op.
void check_no_clobbering(const CompiledProgram& compiled, const std::vector<int>& owner) {
  std::map<int, int> holds;  // buffer -> slot whose value it holds
  for (const LoweredOp& op : compiled.ops()) {
    for (int s : op.input_slots) {
      if (!compiled.preallocated()[static_cast<std::size_t>(s)]) continue;
      CAPTURE(op.label, s);
      CHECK(holds.at(owner[static_cast<std::size_t>(s)]) == s);
    }
    for (int s : op.output_slots) {
      if (compiled.preallocated()[static_cast<std::size_t>(s)]) holds[owner[static_cast<std::size_t>(s)]] = s;
    }
  }
  for (int s : compiled.output_slots()) {
    if (compiled.preallocated()[static_cast<std::size_t>(s)]) CHECK(holds.at(owner[static_cast<std::size_t>(s)]) == s);
  }
}

std::set<int> buffers_of_preallocated(const CompiledProgram& compiled, const std::vector<int>& owner) {
  std::set<int> buffers;
  for (std::size_t s = 0; s < owner.size(); ++s) {
    if (compiled.preallocated()[s]) buffers.insert(owner[s]);
  }
  return buffers;
}

// Two GELUs of different shapes, side by side.
std::shared_ptr<const Program> two_gelus() {
  Builder b("two_gelus");
  ValueId x = b.input("x", fspec({4, 8}));
  ValueId z = b.input("z", fspec({3}));
  b.output("y", ops::gelu_formula(b, x));
  b.output("w", ops::gelu_formula(b, z));
  return b.build();
}

}  // namespace

TEST_CASE("buffer sharing: GELU's five values in three buffers, as an eager step's temporaries", "[engine][sharing]") {
  const auto compiled = compile(gelu_program({4, 8}));
  const std::vector<int> owner = share_buffers(*compiled, compiled->slot_specs());
  std::size_t preallocated = 0;
  for (std::size_t s = 0; s < owner.size(); ++s) {
    if (!compiled->preallocated()[s]) {
      CHECK(owner[s] == static_cast<int>(s));  // externals keep their own buffers
      continue;
    }
    ++preallocated;
    CHECK(compiled->preallocated()[static_cast<std::size_t>(owner[s])]);
  }
  CHECK(preallocated == 5);
  CHECK(buffers_of_preallocated(*compiled, owner).size() == 3);
  check_no_clobbering(*compiled, owner);
}

TEST_CASE("buffer sharing: only between slots of one spec, and never clobbering", "[engine][sharing]") {
  const auto compiled = compile(two_gelus());
  const std::vector<int> owner = share_buffers(*compiled, compiled->slot_specs());
  for (std::size_t s = 0; s < owner.size(); ++s) {
    CHECK(compiled->slot_specs()[s] == compiled->slot_specs()[static_cast<std::size_t>(owner[s])]);
  }
  CHECK(buffers_of_preallocated(*compiled, owner).size() == 6);  // three per GELU, none across shapes
  check_no_clobbering(*compiled, owner);

  // And running on the shared buffers computes what eager computes, step after step.
  ModelStore store;
  Engine engine(store);
  auto eager = make_executor(ExecutorKind::kEager, engine, Policy::inference());
  auto fixed = make_executor(ExecutorKind::kStatic, engine, Policy::inference());
  auto program = two_gelus();
  for (int step = 0; step < 3; ++step) {
    const Feed feed{{"x", at::randn({4, 8}) * 2.0}, {"z", at::randn({3})}};
    const std::vector<at::Tensor> expected = eager->run(program, feed);
    const std::vector<at::Tensor> got = fixed->run(program, feed);
    REQUIRE(got.size() == 2);
    CHECK(tensors_close(got[0], expected[0], 1e-5, 1e-6));
    CHECK(tensors_close(got[1], expected[1], 1e-5, 1e-6));
    CHECK(tensors_close(got[0], gelu_reference(feed.at("x")), 1e-5, 1e-6));
  }
}

TEST_CASE("buffer sharing: a program that trains keeps a buffer per slot", "[engine][sharing]") {
  ops::SgdOptions sgd;
  sgd.lr = 0.1;
  const auto compiled = compile(train_program(Regression{}, sgd_steps(sgd)));
  const std::vector<int> owner = share_buffers(*compiled, compiled->slot_specs());
  for (std::size_t s = 0; s < owner.size(); ++s) CHECK(owner[s] == static_cast<int>(s));
}
