// Timing a block of back-to-back steps: device time from CUDA events around the block (launch
// gaps included: that is what graphs remove), host wall time, and the host's issue time (until the
// last step returned, before waiting for the device), all per step; and the device memory the
// block used. On the CPU the times come from a steady clock. The device is synchronised before a
// block starts (nothing queued earlier is counted); the block ends when the end event on the
// current stream has completed.
//
// With a cold L2 cache (L2Cache::kCold, CUDA only) every step is timed on its own: the L2 cache is
// flushed before it (outside its events, and waited for, so the step is issued to an idle GPU and
// its launch gaps count), and a sample is the mean of its steps' times.
// See docs/measuring.md (device time, host time, issue time, cold L2, training runs).
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
