// Runs the lowered ops of a compiled program, one by one, on a vector of slots. Every executor
// goes through this, so eager, static and graph run exactly the same op code.
#pragma once

#include "graphbench/plan/compiled_program.h"

#include <ATen/ATen.h>

#include <vector>

namespace graphbench {

// Runs every op. Grad mode is on for programs that train and off otherwise. After each op with
// in-place outputs, checks that those outputs still hold the buffer of the input they update;
// a rebinding throws EngineError naming the op and the alias group.
void run_lowered_ops(const CompiledProgram& compiled, std::vector<at::Tensor>& slots);

// The program's registered outputs, read from the slots.
std::vector<at::Tensor> read_outputs(const CompiledProgram& compiled, const std::vector<at::Tensor>& slots);
// The same into `out`, reusing its capacity (no allocation once it has held them).
void read_outputs_into(const CompiledProgram& compiled, const std::vector<at::Tensor>& slots,
                       std::vector<at::Tensor>& out);

}  // namespace graphbench
