#include "graphbench/engine/exec/warm_up.h"

#include <ATen/Context.h>

#include <algorithm>
#include <mutex>

namespace graphbench {

SavedGenerators::SavedGenerators(const std::vector<at::Device>& devices) {
  std::vector<at::Device> seen;
  for (const at::Device& device : devices) {
    if (std::find(seen.begin(), seen.end(), device) != seen.end()) continue;
    seen.push_back(device);
    at::Generator generator = at::globalContext().defaultGenerator(device);
    std::lock_guard<std::mutex> lock(generator.mutex());
    saved_.emplace_back(generator, generator.get_state());
  }
}

void SavedGenerators::restore() {
  for (auto& [generator, state] : saved_) {
    std::lock_guard<std::mutex> lock(generator.mutex());
    generator.set_state(state);
  }
}

void SavedGenerators::seed(std::uint64_t seed) {
  for (auto& [generator, state] : saved_) {
    std::lock_guard<std::mutex> lock(generator.mutex());
    generator.set_current_seed(seed);
  }
}

namespace {

// The devices of the binding's slots, whose generators warm-up steps draw from (dropout).
std::vector<at::Device> slot_devices(SlotBinding& binding) {
  std::vector<at::Device> devices;
  for (const at::Tensor& slot : binding.slots()) {
    if (slot.defined()) devices.push_back(slot.device());
  }
  return devices;
}

}  // namespace

struct UndoPoint::Saved {
  std::vector<at::Tensor> state;
  SavedGenerators generators;
};

UndoPoint::UndoPoint(SlotBinding& binding)
    : binding_(binding), saved_(new Saved{binding.snapshot_updated_state(), SavedGenerators(slot_devices(binding))}) {}

UndoPoint::~UndoPoint() = default;

void UndoPoint::restore() {
  binding_.restore_updated_state(saved_->state);
  saved_->generators.restore();
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
