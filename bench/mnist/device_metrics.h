// Metrics kept on the device, no step reading back: log[step] = value (losses), total += value (test
// sums); states updated in place, reset between epochs through the store.
#pragma once

#include "graphbench/engine/plan/builder.h"

#include <cstdint>
#include <string>

namespace graphbench::bench {

// State "<name>" (float32 [capacity], NaN until written): writes `value` at `step`; the updated log.
ValueId log_at_step(Builder& b, const std::string& name, std::int64_t capacity, ValueId step, ValueId value);

// State "<name>" (0-dim `dtype`, from 0) plus `value`; the updated total.
ValueId accumulate(Builder& b, const std::string& name, at::ScalarType dtype, ValueId value);

}  // namespace graphbench::bench
