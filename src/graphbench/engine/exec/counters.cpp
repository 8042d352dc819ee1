#include "graphbench/engine/exec/counters.h"

namespace graphbench {

std::map<std::string, std::int64_t> Counters::to_map() const {
  std::map<std::string, std::int64_t> out;
#define GRAPHBENCH_COUNTER_PUT(name) if (name != 0) out[#name] = name;
  GRAPHBENCH_COUNTERS(GRAPHBENCH_COUNTER_PUT)
#undef GRAPHBENCH_COUNTER_PUT
  return out;
}

}  // namespace graphbench
