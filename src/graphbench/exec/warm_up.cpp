#include "graphbench/exec/warm_up.h"

#include <ATen/Context.h>

#include <algorithm>
#include <mutex>

namespace graphbench {

namespace {

// The default random number generator of every device the binding works on, with its state.
// Warm-up steps draw from them (dropout); restoring them makes the first real step draw what it
// would have drawn without warm-up, as params and state are restored.
struct SavedGenerator {
  at::Generator generator;
  at::Tensor state;
};

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

void warm_up(SlotBinding& binding, int steps, Counters& counters) {
  if (steps <= 0) return;
  auto snapshot = binding.snapshot_updated_state();
  auto generators = save_generators(binding);
  for (int i = 0; i < steps; ++i) {
    binding.run();
    ++counters.warmup_runs;
  }
  binding.restore_updated_state(snapshot);
  restore_generators(generators);
  // Every alias group was checked after each op; the externals must still be where they were.
  binding.check_fixed_pointers();
}

}  // namespace graphbench
