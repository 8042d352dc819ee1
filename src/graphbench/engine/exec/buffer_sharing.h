// Fixed buffers a binding can share (fewer bytes a graph keeps): a dead value's buffer serves a later
// one, as the caching allocator reuses a temporary. Not for training: autograd may keep any value.
#pragma once

#include "graphbench/engine/plan/compiled_program.h"

#include <vector>

namespace graphbench {

// For every slot, the slot whose buffer it uses: itself, or an earlier preallocated one of the same
// spec read last before. Program outputs never give their buffer up (read after the step).
std::vector<int> share_buffers(const CompiledProgram& compiled, const std::vector<TensorSpec>& slot_specs);

}  // namespace graphbench
