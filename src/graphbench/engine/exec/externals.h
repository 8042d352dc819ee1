// A program's externals resolved against a feed and the model store, alike for every executor.
#pragma once

#include "graphbench/engine/exec/feed.h"
#include "graphbench/engine/exec/model_store.h"
#include "graphbench/engine/plan/program.h"

namespace graphbench {

// Throws EngineError when the feed names a value that is not an external of the program.
void check_feed_names(const Program& program, const Feed& feed);

// The fed tensor of an input; EngineError where missing or of another dtype, device or rank.
const at::Tensor& fed_input(const Program& program, const ValueInfo& value, const Feed& feed);

// The store's buffer of a param or state (made from the feed, or its initial fill, where missing),
// of the declared spec; requires_grad where the program differentiates it.
at::Tensor& store_buffer(const Program& program, const ValueInfo& value, ModelStore& store, const Feed& feed);

}  // namespace graphbench
