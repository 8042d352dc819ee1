// Timing a block of back-to-back steps: device time from CUDA events around the block (launch
// gaps included: that is what graphs remove) and host wall time, both per step. On the CPU both
// come from a steady clock. The device is synchronised before a block starts (nothing queued
// earlier is counted); the block ends when the end event on the current stream has completed.
// See docs/measuring.md (device time, host time, training runs).
#pragma once

#include "graphbench/timing/sampler.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace graphbench {

class StepTimer final : public SampleTimer {
 public:
  explicit StepTimer(bool cuda);
  ~StepTimer() override;
  void start() override;
  StepTime stop(std::int64_t steps) override;
  double now_s() override;

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
