// Metrics kept on the device by ops of a program, so that no step has to read anything back:
//   log_at_step  log[step] = value: every step's loss, read once at the end of an epoch
//   accumulate   total += value: a test pass's summed loss and correct answers
// Both update a state external in place (a fixed buffer that a captured graph writes on every
// replay); the caller resets it between epochs through the model store.
#pragma once

#include "graphbench/engine/plan/builder.h"

#include <cstdint>
#include <string>

namespace graphbench::bench {

// Declares the state "<name>" (float32 [capacity], NaN until written) and writes the 0-dim
// `value` at index `step` (a 0-dim int64 counter below capacity). Returns the updated log.
ValueId log_at_step(Builder& b, const std::string& name, std::int64_t capacity, ValueId step, ValueId value);

// Declares the state "<name>" (0-dim, `dtype`, starting at 0) and adds the 0-dim `value` to it.
// Returns the updated total.
ValueId accumulate(Builder& b, const std::string& name, at::ScalarType dtype, ValueId value);

}  // namespace graphbench::bench
