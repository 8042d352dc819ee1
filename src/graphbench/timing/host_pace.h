// The host's pace, measured beside a case's samples (CUDA).
//
// On a shared machine (a cloud VM) the host issues LibTorch's launches faster or slower from one
// process to the next, and within a process from one minute to the next: a host-bound eager step
// moves by 15% to 40% while the GPU's own work holds within 1%. A register-only arithmetic loop
// does not see it, so it is not the CPU's clock; LibTorch's dispatch path does (what moves is the
// memory the host's launch path touches, not its arithmetic). So after each timed sample, off the
// clock, the runner times a fixed launch probe: kHostPaceLaunches in-place adds of a one-element
// tensor on the current stream, issued back to back; the fastest of kHostPaceRepeats issues is
// the sample's host pace (microseconds). A host-bound step's time divided by the pace of its own
// sample no longer moves with the host (docs/measuring.md, "The host's pace"), and the calibrated
// gate compares host-bound records so (compare/paced_median.h).
#pragma once

#include <ATen/ATen.h>

namespace graphbench {

inline constexpr int kHostPaceLaunches = 10;
inline constexpr int kHostPaceRepeats = 3;

class HostPaceProbe {
 public:
  // Allocates the probe's tensor on the current CUDA device; EngineError in a build without CUDA.
  HostPaceProbe();
  // The host's time, in microseconds, to issue kHostPaceLaunches tiny kernels (the fastest of
  // kHostPaceRepeats). The kernels are left queued: the next timed sample starts after a device
  // synchronization (timing/step_timer.h), so they never run inside one.
  double measure_us();

 private:
  at::Tensor one_;
};

}  // namespace graphbench
