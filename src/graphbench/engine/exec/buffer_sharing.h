// Fixed buffers a binding can share (fewer bytes a graph keeps): a dead value's buffer serves a later
// one, as the caching allocator reuses a temporary. Not for training: autograd may keep any value.
#pragma once

#include "graphbench/engine/plan/compiled_program.h"

#include <vector>

namespace graphbench {

// Each slot's buffer owner: itself, or an earlier dead one of its spec (outputs never give theirs up).
std::vector<int> share_buffers(const CompiledProgram& compiled, const std::vector<TensorSpec>& slot_specs);

}  // namespace graphbench
