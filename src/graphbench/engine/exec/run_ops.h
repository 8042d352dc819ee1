// Runs a compiled program's lowered ops on slots: every executor runs exactly the same op code.
#pragma once

#include "graphbench/engine/plan/compiled_program.h"

#include <ATen/ATen.h>

#include <vector>

namespace graphbench {

// Runs every op, grad mode on where the program trains; an in-place output rebound to another
// buffer throws EngineError naming the op and the alias group.
void run_lowered_ops(const CompiledProgram& compiled, std::vector<at::Tensor>& slots);

// Ops [first, end) only, keeping the autograd graph for a later segment's backward; `running` holds
// the op running (a failed capture names it). End the step with release_autograd.
void run_lowered_op_range(const CompiledProgram& compiled, std::vector<at::Tensor>& slots, std::size_t first,
                          std::size_t end, std::size_t* running = nullptr);

// The end of a step of a program that trains: lets its autograd graph go (see run_ops.cpp).
void release_autograd(const CompiledProgram& compiled, std::vector<at::Tensor>& slots);

// The program's outputs read from the slots into `out`, reusing its capacity.
void read_outputs_into(const CompiledProgram& compiled, const std::vector<at::Tensor>& slots,
                       std::vector<at::Tensor>& out);

}  // namespace graphbench
