#include "graphbench/engine/exec/warm_up.h"

#include <ATen/Context.h>

#include <algorithm>
#include <mutex>

namespace graphbench {

// A device's default generator and its state: restored, the first real step draws what it would have
// drawn without warm-up (outside the anonymous namespace: UndoPoint::Saved holds them).
struct SavedGenerator {
  at::Generator generator;
  at::Tensor state;
};

namespace {

std::vector<SavedGenerator> save_generators(SlotBinding& binding) {
  std::vector<SavedGenerator> saved;
  std::vector<at::Device> devices;
  for (const at::Tensor& slot : binding.slots()) {
    if (!slot.defined() || std::find(devices.begin(), devices.end(), slot.device()) != devices.end()) continue;
    devices.push_back(slot.device());
    at::Generator generator = at::globalContext().defaultGenerator(slot.device());
    std::lock_guard<std::mutex> lock(generator.mutex());
    saved.push_back(SavedGenerator{generator, generator.get_state()});
  }
  return saved;
}

void restore_generators(std::vector<SavedGenerator>& saved) {
  for (SavedGenerator& s : saved) {
    std::lock_guard<std::mutex> lock(s.generator.mutex());
    s.generator.set_state(s.state);
  }
}

}  // namespace

struct UndoPoint::Saved {
  std::vector<at::Tensor> state;
  std::vector<SavedGenerator> generators;
};

UndoPoint::UndoPoint(SlotBinding& binding)
    : binding_(binding), saved_(new Saved{binding.snapshot_updated_state(), save_generators(binding)}) {}

UndoPoint::~UndoPoint() = default;

void UndoPoint::restore() {
  binding_.restore_updated_state(saved_->state);
  restore_generators(saved_->generators);
}

void warm_up(SlotBinding& binding, int steps, Counters& counters) {
  if (steps <= 0) return;
  UndoPoint undo(binding);
  for (int i = 0; i < steps; ++i) {
    binding.run();
    ++counters.warmup_runs;
  }
  undo.restore();
  // Every alias group was checked after each op; the externals must still be where they were.
  binding.check_fixed_pointers();
}

}  // namespace graphbench
