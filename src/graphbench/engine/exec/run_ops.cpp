#include "graphbench/engine/exec/run_ops.h"

#include "graphbench/core/base/errors.h"

#include <ATen/core/grad_mode.h>
#include <c10/util/SmallVector.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace graphbench {

namespace {

[[noreturn]] void throw_alias_rebound(const CompiledProgram& compiled, const LoweredOp& op, int slot) {
  const Program& p = compiled.program();
  std::vector<std::string> group;
  for (ValueId id : compiled.slot_values()[static_cast<std::size_t>(slot)]) group.push_back(p.value(id).name);
  throw EngineError(fmt::format(
      "op {} rebound its in-place output to a new buffer instead of updating \"{}\" in place "
      "(alias group {{{}}}); a CUDA graph would keep writing the old buffer",
      op.label, group.front(), fmt::join(group, ", ")));
}

}  // namespace

void run_lowered_ops(const CompiledProgram& compiled, std::vector<at::Tensor>& slots) {
  run_lowered_op_range(compiled, slots, 0, compiled.ops().size());
  release_autograd(compiled, slots);
}

void run_lowered_op_range(const CompiledProgram& compiled, std::vector<at::Tensor>& slots, std::size_t first,
                          std::size_t end, std::size_t* running) {
  c10::AutoGradMode grad_mode(compiled.program().trains());
  for (std::size_t index = first; index < end; ++index) {
    const LoweredOp& op = compiled.ops()[index];
    if (running != nullptr) *running = index;
    OpIO io(slots, op.input_slots, op.output_slots);
    if (op.allocates) {
      // Last step's outputs must not be computed into (autograd cannot record `_out` kernels):
      // the op allocates them afresh (inside a capture, from the graph's private pool).
      for (int slot : op.output_slots) {
        if (std::find(op.in_place_slots.begin(), op.in_place_slots.end(), slot) == op.in_place_slots.end()) {
          slots[static_cast<std::size_t>(slot)].reset();
        }
      }
    }
    if (op.in_place_slots.empty()) {
      op.op->run(io);
      continue;
    }
    // In-place outputs share their input's slot (compile time); the op must not replace them.
    c10::SmallVector<void*, 32> before;
    for (int slot : op.in_place_slots) {
      const at::Tensor& t = slots[static_cast<std::size_t>(slot)];
      before.push_back(t.defined() ? t.data_ptr() : nullptr);
    }
    op.op->run(io);
    for (std::size_t k = 0; k < op.in_place_slots.size(); ++k) {
      const int slot = op.in_place_slots[k];
      const at::Tensor& t = slots[static_cast<std::size_t>(slot)];
      if (!t.defined() || t.data_ptr() != before[k]) throw_alias_rebound(compiled, op, slot);
    }
  }
}

void release_autograd(const CompiledProgram& compiled, std::vector<at::Tensor>& slots) {
  if (compiled.program().trains()) {
    // Let this step's autograd graph go: kept alive by the slots, its gradient accumulators remember
    // their stream, and a later capture on the same params would make that stream wait on the
    // capturing one, invalidating it. detach() shares the storage: no pointer changes.
    for (at::Tensor& slot : slots) {
      if (slot.defined() && slot.grad_fn()) slot = slot.detach();
    }
  }
}

void read_outputs_into(const CompiledProgram& compiled, const std::vector<at::Tensor>& slots,
                       std::vector<at::Tensor>& out) {
  out.clear();
  out.reserve(compiled.output_slots().size());
  for (int slot : compiled.output_slots()) out.push_back(slots[static_cast<std::size_t>(slot)]);
}

}  // namespace graphbench
