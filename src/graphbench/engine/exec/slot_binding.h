// Fixed slots for one graph key: the buffers a static run or a graph works on. Every external needs a
// role in static_roles (else EngineError, before any capture); params and state are the store's own
// buffers (what a graph updates, the store holds).
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

  // Copies the fed values of copy_roles into their buffers (skipped where the feed is the buffer);
  // others are counted as ignored. One walk in name order: no lookup, no allocation.
  void copy_feed(const Feed& feed, Counters& counters);

  // The copied inputs' fixed buffers, by name (Executor::bound_inputs).
  Feed fixed_inputs() const;

  // True when the feed's copied values have the shapes, dtypes and devices bound here (no allocation).
  bool matches(const Feed& feed) const;

  // Runs the ops on the fixed slots.
  void run();
  // Ops [first, end) only, keeping the autograd graph for later segments; end with end_step().
  void run_range(std::size_t first, std::size_t end, std::size_t* running = nullptr);
  void end_step();

  // Allocates the internal fixed buffers afresh; inside a capture, so they live in the graph's pool.
  void allocate_internal_buffers();
  // The same for those ops [first, end) compute (a segment's graph), sharing among themselves only.
  void allocate_internal_buffers_of(std::size_t first, std::size_t end);

  // The registered outputs: the fixed slots themselves, overwritten by the next run.
  void outputs_into(std::vector<at::Tensor>& out) const;

  // EngineError where an external no longer has the buffer it was bound to (stale for a graph).
  void check_fixed_pointers() const;

  // Copies of the params and state updated in place, and copying them back (warm-up leaves no trace).
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
