#include "mnist/training_progress.h"

#include "graphbench/core/base/elapsed.h"

#include <algorithm>
#include <optional>

namespace graphbench::bench {

TrainingProgress::TrainingProgress(std::ostream* terminal, int epochs, std::int64_t steps_per_epoch,
                                   std::int64_t batch, std::int64_t dataset_size, double min_interval_s)
    : line_(terminal, min_interval_s),
      epochs_(epochs),
      steps_per_epoch_(std::max<std::int64_t>(steps_per_epoch, 1)),
      batch_(batch),
      dataset_size_(dataset_size),
      started_(std::chrono::steady_clock::now()) {}

void TrainingProgress::step_queued(int epoch, std::int64_t logged_step,
                                   const std::function<at::Tensor(std::int64_t)>& loss_of) {
  if (!line_.due()) return;
  if (auto landed = readback_.poll()) {
    done_ = landed->tag;
    loss_ = landed->value;
  }
  const std::int64_t first_of_epoch = static_cast<std::int64_t>(epoch - 1) * steps_per_epoch_;
  if (!readback_.busy() && first_of_epoch + logged_step > done_) {
    readback_.start(loss_of(logged_step), first_of_epoch + logged_step);
  }
  std::optional<double> left;
  std::optional<double> loss;
  int shown_epoch = epoch;
  std::int64_t shown_step = -1;
  if (done_ >= 0) {
    const double elapsed = seconds_since(started_);
    const double total = static_cast<double>(epochs_) * static_cast<double>(steps_per_epoch_);
    const double done = static_cast<double>(done_ + 1);
    left = elapsed / done * std::max(0.0, total - done);
    shown_epoch = static_cast<int>(done_ / steps_per_epoch_) + 1;
    shown_step = done_ % steps_per_epoch_;
    loss = loss_;
  }
  const std::int64_t samples = std::min((shown_step + 1) * batch_, dataset_size_);
  line_.update(epoch_progress_text(shown_epoch, epochs_, samples, dataset_size_, loss, left), /*force=*/true);
}

}  // namespace graphbench::bench
