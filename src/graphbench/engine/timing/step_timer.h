// Timing a block of back-to-back steps, per step: device time from CUDA events around it (launch
// gaps included: what graphs remove), host wall time, the host's issue time, and the device memory
// used; on the CPU a steady clock. With a cold L2 (CUDA) every step is timed alone after a flush,
// the sample the mean. See docs/measuring.md.
#pragma once

#include "graphbench/core/record/record_kinds.h"
#include "graphbench/core/sampling/sampler.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace graphbench {

class StepTimer final : public SampleTimer {
 public:
  explicit StepTimer(bool cuda, L2Cache l2 = L2Cache::kHot);
  ~StepTimer() override;
  void start() override;
  StepTime stop(std::int64_t steps) override;
  double now_s() override;
  bool times_each_step() const override;
  void before_step() override;
  void after_step() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Marks on the device timeline without synchronising, for loops that must not stall (training):
// the per-step times of the intervals between marks are read once at the end.
class IntervalRecorder {
 public:
  explicit IntervalRecorder(bool cuda);
  ~IntervalRecorder();
  void mark(std::int64_t steps_since_last_mark);
  // Per-step microseconds of every interval (synchronises once). The first mark starts timing.
  std::vector<double> per_step_us();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Waits for all work queued on the device (a no-op on the CPU).
void synchronize_device(bool cuda);

}  // namespace graphbench
