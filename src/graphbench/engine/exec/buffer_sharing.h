// Which fixed buffers a binding can share: a value computed into a fixed slot that no later op
// reads leaves its buffer free for a value computed after it, as the caching allocator frees a
// temporary in an eager step. Only for programs that do not train: autograd may keep any
// intermediate for the backward pass.
//
// Why: fewer bytes per binding (a graph's fixed buffers are memory it keeps for all its replays).
#pragma once

#include "graphbench/engine/plan/compiled_program.h"

#include <vector>

namespace graphbench {

// For every slot, the slot whose buffer it uses: itself, or an earlier preallocated slot with the
// same spec whose last reader ran before this slot's value is computed. Slots that are not
// preallocated (externals, values an op allocates, in-place outputs) keep their own buffers; a
// program output may take a free buffer but never gives its own up (it is read after the step).
std::vector<int> share_buffers(const CompiledProgram& compiled, const std::vector<TensorSpec>& slot_specs);

}  // namespace graphbench
