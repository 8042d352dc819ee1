// An operation of a program, reading and writing slots. Handed a defined output (a fixed slot, or
// the input it updates in place), an op that can compute into it must (an `_out` kernel): that keeps
// pointers fixed for a graph. One that cannot (autograd records no `_out` kernel) replaces the
// output tensor; executors accept that but for in-place outputs.
#pragma once

#include "graphbench/engine/plan/tensor_spec.h"

#include <ATen/ATen.h>

#include <string>
#include <utility>
#include <vector>

namespace graphbench {

// The view of the slots one op sees while it runs.
class OpIO {
 public:
  OpIO(std::vector<at::Tensor>& slots, const std::vector<int>& inputs,
       const std::vector<int>& outputs)
      : slots_(slots), inputs_(inputs), outputs_(outputs) {}

  std::size_t num_inputs() const { return inputs_.size(); }
  std::size_t num_outputs() const { return outputs_.size(); }
  const at::Tensor& in(std::size_t i) const { return slots_[inputs_[i]]; }
  at::Tensor& out(std::size_t i) { return slots_[outputs_[i]]; }
  // Inputs [first, first + count) as a list (for foreach kernels and autograd).
  std::vector<at::Tensor> in_list(std::size_t first, std::size_t count) const;

 private:
  std::vector<at::Tensor>& slots_;
  const std::vector<int>& inputs_;
  const std::vector<int>& outputs_;
};

class Op {
 public:
  virtual ~Op() = default;

  // The op's kind and attributes, e.g. "dropout(p=0.2)": part of the plan key.
  virtual std::string signature() const = 0;

  // Output specs from input specs. Throws EngineError naming the op on a mismatch.
  virtual std::vector<TensorSpec> infer(const std::vector<TensorSpec>& inputs) const = 0;

  virtual void run(OpIO& io) const = 0;

  // In-place outputs: {output index, input index} pairs. The output value aliases the input's slot.
  virtual std::vector<std::pair<int, int>> in_place() const { return {}; }

  // Whether autograd differentiates through this op (its outputs require grad when an input does).
  virtual bool differentiable() const { return true; }

  // Whether the op can compute into preallocated outputs when no input requires grad.
  virtual bool computes_into_outputs() const { return false; }

  // Inputs this op differentiates with respect to (the backward op), by input index.
  virtual std::vector<int> differentiates_inputs() const { return {}; }
};

// Throws EngineError("<op>: <message>") for a shape or dtype mismatch found by infer().
[[noreturn]] void throw_op_error(const Op& op, const std::string& message);

// Checks that inputs.size() == expected, else throw_op_error.
void expect_input_count(const Op& op, const std::vector<TensorSpec>& inputs, std::size_t expected);

}  // namespace graphbench
