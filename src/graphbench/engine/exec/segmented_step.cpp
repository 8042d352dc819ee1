#include "graphbench/engine/exec/segmented_step.h"

#include "graphbench/core/base/errors.h"

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace graphbench {

SegmentedStep::SegmentedStep(SlotBinding& binding, std::vector<Segment> segments)
    : binding_(binding),
      segments_(std::move(segments)),
      crossing_(segments_.size()),
      reads_(segments_.size()),
      fixed_(binding.slots().size()) {
  const CompiledProgram& compiled = binding.compiled();
  const auto& ops = compiled.ops();
  // The segment whose op makes each internal slot (-1: externals, which have fixed buffers).
  std::vector<int> made_by(compiled.num_slots(), -1);
  for (std::size_t s = 0; s < segments_.size(); ++s) {
    for (std::size_t i = segments_[s].first_op; i < segments_[s].end_op; ++i) {
      const LoweredOp& op = ops[i];
      for (int slot : op.output_slots) {
        // An in-place output updates a slot made before (or an external): its buffer stays.
        if (std::find(op.in_place_slots.begin(), op.in_place_slots.end(), slot) != op.in_place_slots.end()) continue;
        made_by[static_cast<std::size_t>(slot)] = static_cast<int>(s);
      }
    }
  }
  for (std::size_t s = 0; s < segments_.size(); ++s) {
    if (!segments_[s].captured) continue;
    for (std::size_t i = segments_[s].first_op; i < segments_[s].end_op; ++i) {
      for (int slot : ops[i].input_slots) {
        const int maker = made_by[static_cast<std::size_t>(slot)];
        if (maker < 0 || segments_[static_cast<std::size_t>(maker)].captured) continue;
        std::vector<int>& crossing = crossing_[static_cast<std::size_t>(maker)];
        if (std::find(crossing.begin(), crossing.end(), slot) == crossing.end()) crossing.push_back(slot);
        std::vector<int>& reads = reads_[s];
        if (std::find(reads.begin(), reads.end(), slot) == reads.end()) reads.push_back(slot);
      }
    }
  }
}

void SegmentedStep::run_ops(std::size_t index) {
  binding_.run_range(segments_[index].first_op, segments_[index].end_op);
}

void SegmentedStep::run_eager(std::size_t index, Counters& counters) {
  run_ops(index);
  ++counters.eager_segment_runs;
  std::vector<at::Tensor>& slots = binding_.slots();
  for (int slot : crossing_[index]) {
    at::Tensor& value = slots[static_cast<std::size_t>(slot)];
    at::Tensor& fixed = fixed_[static_cast<std::size_t>(slot)];
    if (fixed.defined() && value.data_ptr() == fixed.data_ptr()) continue;  // computed into it
    at::NoGradGuard no_grad;
    if (!fixed.defined()) {
      fixed = at::empty_like(value);
    } else if (fixed.sizes() != value.sizes() || fixed.scalar_type() != value.scalar_type()) {
      throw EngineError(fmt::format(
          "program {}: segment \"{}\" made slot {} with shape {} where its first run made {}: a captured segment "
          "reads it at a fixed buffer of that shape",
          binding_.compiled().program().name(), segments_[index].name, slot, fmt::join(value.sizes(), "x"),
          fmt::join(fixed.sizes(), "x")));
    }
    fixed.copy_(value.detach(), /*non_blocking=*/true);
    // A value autograd tracks keeps its slot (eager ops after it may differentiate it); the
    // captured segments that read it see the fixed buffer through a CapturedView.
    if (!value.requires_grad()) value = fixed;
    ++counters.crossing_copies;
  }
}

void SegmentedStep::run_all(Counters& counters) {
  for (std::size_t s = 0; s < segments_.size(); ++s) {
    if (segments_[s].captured) {
      CapturedView view(*this, s);
      run_ops(s);
    } else {
      run_eager(s, counters);
    }
  }
  end_step();
}

SegmentedStep::CapturedView::CapturedView(SegmentedStep& step, std::size_t index) : step_(step) {
  std::vector<at::Tensor>& slots = step_.binding_.slots();
  for (int slot : step_.reads_[index]) {
    at::Tensor& value = slots[static_cast<std::size_t>(slot)];
    const at::Tensor& fixed = step_.fixed_[static_cast<std::size_t>(slot)];
    if (!fixed.defined() || (value.defined() && value.data_ptr() == fixed.data_ptr())) continue;
    held_.emplace_back(slot, value);
    value = fixed;
  }
}

SegmentedStep::CapturedView::~CapturedView() {
  std::vector<at::Tensor>& slots = step_.binding_.slots();
  for (auto& [slot, value] : held_) slots[static_cast<std::size_t>(slot)] = std::move(value);
}

}  // namespace graphbench
