// Where a case sits in a sweep (docs/spec.md, "Sweeps"): the swept case's own name, the axis and
// the value this point runs at. Suite specs and result records both carry it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

struct SweepPoint {
  std::string group;  // the swept case's own name
  std::string axis;   // "batch", "pos"
  std::int64_t value = 0;
};

// The graphs of a sweep's recommended sizes kept together in one shared memory pool, as servers
// keep theirs: measured by the runner after the sweep's last point (CUDA runs only).
struct SharedPoolMeasurement {
  std::string group;
  std::string variant;
  std::vector<std::int64_t> sizes;  // captured in this order: largest first
  std::optional<std::int64_t> reserved_bytes;
  std::string error;  // why it could not be measured, or ""
};

}  // namespace graphbench
