#include "graphbench/engine/exec/buffer_sharing.h"

#include <algorithm>

namespace graphbench {

std::vector<int> share_buffers(const CompiledProgram& compiled, const std::vector<TensorSpec>& slot_specs) {
  const std::size_t n = compiled.num_slots();
  std::vector<int> owner(n);
  for (std::size_t s = 0; s < n; ++s) owner[s] = static_cast<int>(s);
  if (compiled.program().trains()) return owner;

  const auto& ops = compiled.ops();
  // The last op that reads each slot (-1: none); outputs are read after the step.
  std::vector<int> last_read(n, -1);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    for (int s : ops[i].input_slots) last_read[static_cast<std::size_t>(s)] = static_cast<int>(i);
  }
  std::vector<bool> read_after_step(n, false);
  for (int s : compiled.output_slots()) read_after_step[static_cast<std::size_t>(s)] = true;

  // An alias root is also the output slot of the ops that update it in place: it gets its buffer once.
  std::vector<bool> assigned(n, false);
  std::vector<int> free_buffers;  // owner slots whose current value is dead
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const LoweredOp& op = ops[i];
    if (!op.allocates) {
      for (int s : op.output_slots) {
        const auto slot = static_cast<std::size_t>(s);
        if (!compiled.preallocated()[slot] || assigned[slot]) continue;
        assigned[slot] = true;
        auto fit = std::find_if(free_buffers.begin(), free_buffers.end(), [&](int b) {
          return slot_specs[static_cast<std::size_t>(b)] == slot_specs[slot];
        });
        if (fit != free_buffers.end()) {
          owner[slot] = *fit;
          free_buffers.erase(fit);
        }
      }
    }
    // After the op has run, buffers whose value it read last are free (never those of the op's
    // own outputs: an op does not compute into a buffer it reads).
    for (int s : op.input_slots) {
      const auto slot = static_cast<std::size_t>(s);
      if (last_read[slot] != static_cast<int>(i) || !compiled.preallocated()[slot] || read_after_step[slot]) continue;
      const int buffer = owner[slot];
      if (std::find(free_buffers.begin(), free_buffers.end(), buffer) == free_buffers.end()) {
        free_buffers.push_back(buffer);
      }
    }
  }
  return owner;
}

}  // namespace graphbench
