// Runs the lowered ops of a compiled program, one by one, on a vector of slots. Every executor
// goes through this, so eager, static and graph run exactly the same op code.
#pragma once

#include "graphbench/engine/plan/compiled_program.h"

#include <ATen/ATen.h>

#include <vector>

namespace graphbench {

// Runs every op. Grad mode is on for programs that train and off otherwise. After each op with
// in-place outputs, checks that those outputs still hold the buffer of the input they update;
// a rebinding throws EngineError naming the op and the alias group.
void run_lowered_ops(const CompiledProgram& compiled, std::vector<at::Tensor>& slots);

// Runs ops [first, end) only, as run_lowered_ops does, but keeps the step's autograd graph: a
// segmented step (engine/plan/segments.h) runs its segments one after another, and the backward op of a
// later segment differentiates what an earlier one recorded. `running` (when given) holds the
// index of the op running, so that a failed capture can name it. End the step with
// release_autograd.
void run_lowered_op_range(const CompiledProgram& compiled, std::vector<at::Tensor>& slots, std::size_t first,
                          std::size_t end, std::size_t* running = nullptr);

// The end of a step of a program that trains: lets its autograd graph go (see run_ops.cpp).
void release_autograd(const CompiledProgram& compiled, std::vector<at::Tensor>& slots);

// The program's registered outputs, read from the slots into `out`, reusing its capacity (no
// allocation once it has held them).
void read_outputs_into(const CompiledProgram& compiled, const std::vector<at::Tensor>& slots,
                       std::vector<at::Tensor>& out);

}  // namespace graphbench
