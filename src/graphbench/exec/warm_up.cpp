#include "graphbench/exec/warm_up.h"

namespace graphbench {

void warm_up(SlotBinding& binding, int steps, Counters& counters) {
  if (steps <= 0) return;
  auto snapshot = binding.snapshot_updated_state();
  for (int i = 0; i < steps; ++i) {
    binding.run();
    ++counters.warmup_runs;
  }
  binding.restore_updated_state(snapshot);
  // Every alias group was checked after each op; the externals must still be where they were.
  binding.check_fixed_pointers();
}

}  // namespace graphbench
