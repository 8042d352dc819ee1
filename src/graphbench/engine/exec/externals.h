// Resolving a program's externals against a feed and the model store: shared by every executor
// so that all of them accept and reject the same feeds with the same messages.
#pragma once

#include "graphbench/engine/exec/feed.h"
#include "graphbench/engine/exec/model_store.h"
#include "graphbench/engine/plan/program.h"

namespace graphbench {

// Throws EngineError when the feed names a value that is not an external of the program.
void check_feed_names(const Program& program, const Feed& feed);

// The fed tensor of an input external; throws EngineError when it is missing or has the wrong
// dtype or device (its shape may differ: a new shape is a new graph key).
const at::Tensor& fed_input(const Program& program, const ValueInfo& value, const Feed& feed);

// The model-store buffer of a param or state external. When the store lacks it, it is created
// from the feed (a copy on the declared device). Its spec must equal the declared one. Params that
// the program differentiates get requires_grad.
at::Tensor& store_buffer(const Program& program, const ValueInfo& value, ModelStore& store, const Feed& feed);

}  // namespace graphbench
