// Warm-up on fixed buffers: run a few steps so that allocator, library handles, lazy
// initialisation and kernel selection are settled, then put params and state back as they were
// (warm-up steps are not training steps).
#pragma once

#include "graphbench/exec/counters.h"
#include "graphbench/exec/slot_binding.h"

namespace graphbench {

void warm_up(SlotBinding& binding, int steps, Counters& counters);

}  // namespace graphbench
