// Warm-up on fixed buffers: a few steps to settle allocator, handles and kernels; params and state put back.
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/engine/exec/counters.h"
#include "graphbench/engine/exec/slot_binding.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace graphbench {

void warm_up(SlotBinding& binding, int steps, Counters& counters);

// The default generators of `devices` with their states when made: restore() puts them back.
class SavedGenerators {
 public:
  explicit SavedGenerators(const std::vector<at::Device>& devices);
  void restore();
  void seed(std::uint64_t seed);

 private:
  std::vector<std::pair<at::Generator, at::Tensor>> saved_;
};

// The params and state a binding updates, and its devices' generators, as when made; restore() puts
// them back (warm-up, and a segmented capture whose eager segments really run).
class UndoPoint : NonCopyable {
 public:
  explicit UndoPoint(SlotBinding& binding);
  ~UndoPoint();
  void restore();

 private:
  struct Saved;
  SlotBinding& binding_;
  std::unique_ptr<Saved> saved_;
};

}  // namespace graphbench
