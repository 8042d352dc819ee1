// A training run's live progress line on a terminal, its loss read by AsyncReadback (no stall).
#pragma once

#include "mnist/async_readback.h"

#include "graphbench/core/report/progress.h"

#include <ATen/ATen.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>

namespace graphbench::bench {

class TrainingProgress {
 public:
  // `terminal` null: silent. `steps_per_epoch` trained steps of `batch` samples each.
  TrainingProgress(std::ostream* terminal, int epochs, std::int64_t steps_per_epoch, std::int64_t batch,
                   std::int64_t dataset_size, double min_interval_s = 0.1);

  bool active() const { return line_.active(); }
  // After a step was queued; `logged_step`: whose loss the line shows (`loss_of` asked on a new reading).
  void step_queued(int epoch, std::int64_t logged_step, const std::function<at::Tensor(std::int64_t)>& loss_of);
  // Erases the line (before the epoch's own lines are printed).
  void clear() { line_.clear(); }

 private:
  ProgressLine line_;
  AsyncReadback readback_;
  int epochs_;
  std::int64_t steps_per_epoch_;
  std::int64_t batch_;
  std::int64_t dataset_size_;
  std::chrono::steady_clock::time_point started_;
  std::int64_t done_ = -1;  // global index of the last step the device is known to have finished
  double loss_ = 0.0;       // the loss logged at that step
};

}  // namespace graphbench::bench
