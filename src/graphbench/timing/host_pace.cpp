#include "graphbench/timing/host_pace.h"

#include "graphbench/core/errors.h"

#include <algorithm>
#include <chrono>
#include <limits>

namespace graphbench {

HostPaceProbe::HostPaceProbe() {
#ifdef GRAPHBENCH_WITH_CUDA
  one_ = at::zeros({1}, at::TensorOptions().dtype(at::kFloat).device(at::kCUDA));
#else
  throw EngineError("the host's pace is measured on a CUDA device only: this graphbench was built without CUDA");
#endif
}

double HostPaceProbe::measure_us() {
  using Clock = std::chrono::steady_clock;
  double fastest = std::numeric_limits<double>::infinity();
  for (int r = 0; r < kHostPaceRepeats; ++r) {
    const auto start = Clock::now();
    for (int i = 0; i < kHostPaceLaunches; ++i) one_.add_(1.0);
    fastest = std::min(fastest, std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  return fastest;
}

}  // namespace graphbench
