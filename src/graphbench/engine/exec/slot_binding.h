// Fixed slots for one (program, policy, feed signature): the buffers a static run or a CUDA
// graph works on. Built once per graph key, then reused for every run of that key.
//
// At binding: every external must have a role in static_roles (else EngineError, before any
// capture); inputs get buffers allocated from the feed's spec and filled from the feed; params
// and state are the model store's own buffers (so what a graph updates, the store holds);
// internals computed into fixed outputs are allocated from their spec; in-place outputs already
// share their input's slot (the compiled alias map).
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/engine/exec/counters.h"
#include "graphbench/engine/exec/feed.h"
#include "graphbench/engine/exec/model_store.h"
#include "graphbench/engine/exec/policy.h"
#include "graphbench/engine/plan/compiled_program.h"

#include <vector>

namespace graphbench {

class SlotBinding : NonCopyable {
 public:
  SlotBinding(const CompiledProgram& compiled, const Policy& policy, ModelStore& store, const Feed& feed);

  const CompiledProgram& compiled() const { return compiled_; }

  // Copies the fed values whose role is in copy_roles into their fixed buffers (skipped when the
  // feed tensor is that buffer already); other fed values are ignored and counted. One walk over
  // the feed and the externals, both in name order: no lookup, no allocation.
  void copy_feed(const Feed& feed, Counters& counters);

  // The fixed buffers of the inputs copied from a feed, by name: feeding these tensors makes
  // copy_feed skip every copy (Executor::bound_inputs).
  Feed fixed_inputs() const;

  // True when the feed's copied values have the shapes, dtypes and devices bound here (no allocation).
  bool matches(const Feed& feed) const;

  // Runs the ops on the fixed slots.
  void run();
  // Runs ops [first, end) only, keeping the step's autograd graph for the segments after it
  // (run_lowered_op_range); end the step with end_step(). `running`: see run_lowered_op_range.
  void run_range(std::size_t first, std::size_t end, std::size_t* running = nullptr);
  void end_step();

  // Allocates the buffers of the values computed into fixed slots afresh (the binding does so when
  // made). CapturedGraph calls it again inside its capture, so that the graph's own values live in
  // the graph's private pool and its size is the graph's memory; inputs, params, state and what
  // the ops allocate are not touched.
  void allocate_internal_buffers();
  // The same for the values ops [first, end) compute into fixed slots only: a segment's graph
  // allocates its own values in its pool. They share buffers among themselves only.
  void allocate_internal_buffers_of(std::size_t first, std::size_t end);

  // The registered outputs: the fixed slots themselves, overwritten by the next run.
  void outputs_into(std::vector<at::Tensor>& out) const;

  // Throws EngineError when an external no longer has the buffer it was bound to (in the slots or
  // in the model store): a graph captured on the old pointer would read or write stale memory.
  void check_fixed_pointers() const;

  // Params and state that the program updates in place: copies, and copying them back (into the
  // same buffers). Warm-up uses this so that warm-up steps leave no trace.
  std::vector<at::Tensor> snapshot_updated_state() const;
  void restore_updated_state(const std::vector<at::Tensor>& snapshot);

  std::vector<at::Tensor>& slots() { return slots_; }

 private:
  struct BoundExternal {
    const ValueInfo* value = nullptr;
    int slot = -1;
    bool copied = false;                  // role in copy_roles
    bool updated = false;                 // written in place by some op
    const at::Tensor* store_entry = nullptr;  // params and state: the store's tensor
    void* data = nullptr;                 // the pointer bound
  };

  const CompiledProgram& compiled_;
  std::vector<at::Tensor> slots_;
  std::vector<BoundExternal> externals_;
  std::vector<const BoundExternal*> by_name_;  // externals_ in name order (a Feed's order)
  std::vector<TensorSpec> slot_specs_;
};

}  // namespace graphbench
