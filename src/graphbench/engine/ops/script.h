// A TorchScript function compiled from source as one op, so the JIT fuses elementwise chains.
#pragma once

#include "graphbench/engine/plan/builder.h"

#include <functional>
#include <string>
#include <vector>

namespace graphbench::ops {

using SpecInference = std::function<std::vector<TensorSpec>(const std::vector<TensorSpec>&)>;

// Calls `function` of `source` on `inputs`; `infer` gives the output specs (one output).
ValueId script_call(Builder& b, const std::string& source, const std::string& function,
                    const std::vector<ValueId>& inputs, SpecInference infer);

// The blog's GELU as TorchScript source.
extern const char* const kGeluScriptSource;

}  // namespace graphbench::ops
