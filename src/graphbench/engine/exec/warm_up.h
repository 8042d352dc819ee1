// Warm-up on fixed buffers: run a few steps so that allocator, library handles, lazy
// initialisation and kernel selection are settled, then put params and state back as they were
// (warm-up steps are not training steps).
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/engine/exec/counters.h"
#include "graphbench/engine/exec/slot_binding.h"

#include <memory>

namespace graphbench {

void warm_up(SlotBinding& binding, int steps, Counters& counters);

// The params and state a binding updates, and the random generators of its devices, as they are
// when made; restore() puts them back. Warm-up uses it, and so does a segmented capture, whose
// eager segments really run (segmented_step.h).
class UndoPoint : NonCopyable {
 public:
  explicit UndoPoint(SlotBinding& binding);
  ~UndoPoint();
  void restore();

 private:
  struct Saved;
  SlotBinding& binding_;
  std::unique_ptr<Saved> saved_;
};

}  // namespace graphbench
