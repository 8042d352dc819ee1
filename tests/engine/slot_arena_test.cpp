// The arena a binding's fixed buffers come from: one block, aligned buffers that do not overlap,
// each a tensor of its own (its own version counter), a block that cannot grow.
#include "engine/engine_test_util.h"

#include "graphbench/exec/slot_arena.h"

using namespace graphbench;
using namespace graphbench::test_util;

TEST_CASE("slot arena: buffers of the specs, aligned, apart, on one block", "[engine][arena]") {
  const std::vector<TensorSpec> specs{
      {{3, 5}, at::kFloat, at::kCPU}, {{7}, at::kLong, at::kCPU}, {{2, 0, 4}, at::kFloat, at::kCPU},
      {{1}, at::kHalf, at::kCPU}, {{4, 4}, at::kDouble, at::kCPU}};
  const std::vector<at::Tensor> buffers = allocate_arena(specs);
  REQUIRE(buffers.size() == specs.size());
  const auto* base = static_cast<const char*>(buffers[0].storage().data());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    CAPTURE(i);
    CHECK(spec_of(buffers[i]) == specs[i]);
    CHECK(buffers[i].is_contiguous());
    CHECK(buffers[i].storage().is_alias_of(buffers[0].storage()));
    if (buffers[i].numel() == 0) continue;  // an empty tensor has no data pointer
    const auto offset = static_cast<const char*>(buffers[i].data_ptr()) - base;
    CHECK(offset % kSlotAlignment == 0);
  }
  // In slot order, each buffer past the end of the one before.
  for (std::size_t i = 1; i < specs.size(); ++i) {
    if (buffers[i].numel() == 0 || buffers[i - 1].numel() == 0) continue;
    const auto* previous_end = static_cast<const char*>(buffers[i - 1].data_ptr()) + buffers[i - 1].nbytes();
    CHECK(static_cast<const char*>(buffers[i].data_ptr()) >= previous_end);
  }
  // Writing one buffer leaves the others, and their version counters, alone.
  at::Tensor a = buffers[0], b = buffers[4];
  b.fill_(2.0);
  const auto b_version = b._version();
  a.fill_(1.0);
  CHECK(b.eq(2.0).all().item<bool>());
  CHECK(b._version() == b_version);
  CHECK(a.eq(1.0).all().item<bool>());
}

TEST_CASE("slot arena: a buffer cannot grow its block", "[engine][arena]") {
  std::vector<at::Tensor> buffers = allocate_arena({{{4}, at::kFloat, at::kCPU}, {{4}, at::kFloat, at::kCPU}});
  void* const first = buffers[0].data_ptr();
  CHECK_THROWS(buffers[1].resize_({1 << 20}));
  CHECK(buffers[0].data_ptr() == first);
  buffers[1].resize_({2});  // shrinking stays inside the block
  CHECK(buffers[1].numel() == 2);
}

TEST_CASE("slot arena: a binding's input and output buffers share one block", "[engine][arena][static]") {
  auto program = gelu_program({8, 16});
  ModelStore store;
  Engine engine(store);
  auto fixed = make_executor(ExecutorKind::kStatic, engine, Policy::inference());
  const at::Tensor x = at::randn({8, 16});
  const Feed feed{{"x", x}};
  const at::Tensor y = fixed->run(program, feed).at(0);
  CHECK(tensors_close(y, gelu_reference(x), 1e-5, 1e-6));
  const std::optional<Feed> bound = fixed->bound_inputs(program, feed);
  REQUIRE(bound.has_value());
  const at::Tensor& x_buffer = bound->at("x");
  CHECK(x_buffer.data_ptr() != x.data_ptr());
  CHECK(x_buffer.storage().is_alias_of(y.storage()));
}
