// Warm-up on fixed buffers: a few steps to settle allocator, handles and kernel selection, then params
// and state put back (warm-up steps are not training steps).
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/engine/exec/counters.h"
#include "graphbench/engine/exec/slot_binding.h"

#include <memory>

namespace graphbench {

void warm_up(SlotBinding& binding, int steps, Counters& counters);

// The params and state a binding updates, and its devices' generators, as when made; restore() puts
// them back (warm-up, and a segmented capture whose eager segments really run).
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
