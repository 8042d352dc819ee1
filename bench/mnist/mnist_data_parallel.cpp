#include "mnist/mnist_training.h"

#include "mnist/mnist_data.h"
#include "mnist/mnist_model.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/cases/agreement.h"
#include "graphbench/parallel/cases/progress_watchdog.h"
#include "graphbench/parallel/cases/replicas.h"
#include "graphbench/core/stats/statistics.h"
#include "graphbench/core/sampling/case_budget.h"
#include "graphbench/engine/runner/case_timing.h"
#include "graphbench/engine/timing/step_timer.h"

#include <fmt/format.h>

#include <chrono>

namespace graphbench::mnist {

namespace {

using Clock = std::chrono::steady_clock;

// This rank's part of a split.
Split shard(const Split& all, int rank, int world) {
  const parallel::Shard s = parallel::shard_of(all.size(), rank, world);
  return Split{all.images.narrow(0, s.begin, s.size), all.labels.narrow(0, s.begin, s.size)};
}

class DataParallelTrainer {
 public:
  DataParallelTrainer(const TrainingConfig& config, const DataParallelSetup& setup)
      : config_(config),
        comm_(setup.communicator),
        cuda_(config.device.is_cuda()),
        train_all_(load_split(config.data_dir, /*train=*/true, config.device)),
        test_all_(load_split(config.data_dir, /*train=*/false, config.device)),
        train_(shard(train_all_, comm_->rank(), comm_->world_size())),
        test_(shard(test_all_, comm_->rank(), comm_->world_size())),
        store_(initial_store(config.device)),
        engine_(store_),
        train_program_(build_train_program({config.batch, config.lr, config.momentum, true}, config.device, setup)),
        // No eager fallback: a rank running eagerly where the others replay is not the variant it says.
        train_executor_(make_executor(config.train_executor, engine_, Policy::train(), ExecutorOptions{3, false, {}})),
        test_executor_(make_executor(config.test_executor, engine_, Policy::inference(), ExecutorOptions{3, false, {}})),
        step_times_(cuda_) {
    // The replicas start equal: rank 0's initial params.
    parallel::broadcast_store(*comm_, store_);
    print(config, fmt::format("Data: {}; on the device, each of {} ranks a contiguous shard of {} training and {} test "
                              "images, in order\n",
                              config.data_dir, comm_->world_size(), train_.size(), test_.size()));
  }

  DataParallelTraining run(Clock::time_point started) {
    DataParallelTraining out;
    out.samples_per_step = config_.batch;
    TrainingSummary& summary = out.summary;
    summary.train_executor = to_string(config_.train_executor);
    summary.test_executor = to_string(config_.test_executor);
    const int world = comm_->world_size();
    training_started_ = Clock::now();
    epochs_ = config_.epochs;
    double longest_epoch_s = 0.0;
    for (int epoch = 1; epoch <= epochs_; ++epoch) {
      TrainingEpoch record;
      record.epoch = epoch;
      record.dataset_size = train_all_.size();
      const auto train_start = Clock::now();
      const at::Tensor logged_loss = train_epoch(summary, record);
      synchronize_device(cuda_);
      record.train_seconds = seconds_since(train_start);
      if (logged_loss.defined()) record.logged_loss = logged_loss.item<double>();
      print(config_, fmt::format("Train Epoch: {} [{:5d}/{:5d}] Loss: {:.4f}  ({} ranks, {} samples each, rank 0's loss)\n",
                                 epoch, record.logged_samples, record.dataset_size, record.logged_loss, world, train_.size()));
      const auto test_start = Clock::now();
      test(record);
      record.test_seconds = seconds_since(test_start);
      print(config_, fmt::format("Test set: Average loss: {:.4f} | Accuracy: {:.3f}\n", record.test_loss, record.test_accuracy));
      summary.epochs.push_back(record);
      longest_epoch_s = std::max(longest_epoch_s, record.train_seconds + record.test_seconds);
      // The ranks stop together, by the slowest rank's clock: each step holds collectives.
      if (config_.time_limit && epoch < epochs_ &&
          !another_epoch_fits(slowest_rank_s(&agreement_, seconds_since(training_started_)),
                              slowest_rank_s(&agreement_, longest_epoch_s), config_.time_limit->seconds)) {
        epochs_ = epoch;
      }
    }
    note_epochs_cut(config_, epochs_, longest_epoch_s, summary);
    summary.total_seconds = seconds_since(started);
    const auto per_step = step_times_.per_step_us();
    if (!per_step.empty()) summary.median_step_us = stats::summarize(per_step).median;
    print(config_, fmt::format("Total time: {:.2f} s; {} steps per rank, median step {:.0f} us (rank 0)\n",
                               summary.total_seconds, summary.train_steps, summary.median_step_us));
    for (const auto& name : param_names()) out.final_params.push_back(store_.at(name).detach().clone());
    return out;
  }

 private:
  // One epoch over this rank's shard; returns the last logged loss (a device copy).
  at::Tensor train_epoch(TrainingSummary& summary, TrainingEpoch& record) {
    const std::int64_t n = train_.size();
    at::Tensor logged_loss;
    std::int64_t in_block = 0;
    step_times_.mark(0);
    std::int64_t batch_index = 0;
    // Under a time limit, steps 1 to probe_steps of the first epoch are the probe, then the plan.
    const std::int64_t steps = config_.train_last_short_batch ? (n + config_.batch - 1) / config_.batch : n / config_.batch;
    // Device time of blocks of steps, marked without synchronising.
    const std::int64_t block = timing_block_steps(steps);
    const std::int64_t probe_steps = std::min<std::int64_t>(kTrainingProbeSteps, steps - 1);
    for (std::int64_t start = 0; start < n; start += config_.batch) {
      const std::int64_t rows = std::min(config_.batch, n - start);
      // Every shard has the same size, so every rank skips (or trains on) the same short batch.
      if (rows != config_.batch && !config_.train_last_short_batch) {
        ++summary.skipped_batches;
        continue;
      }
      Feed feed{{"x", train_.images.narrow(0, start, rows)}, {"y", train_.labels.narrow(0, start, rows)}};
      const bool probing = record.epoch == 1 && config_.time_limit && batch_index >= 1 && batch_index <= probe_steps;
      if (probing && batch_index == 1) {
        synchronize_device(cuda_);
        probe_started_ = Clock::now();
      }
      const auto outputs = train_executor_->run(train_program_, feed);
      if (probing && batch_index == probe_steps) plan_epochs(seconds_since(probe_started_) / probe_steps, steps);
      parallel::heartbeat();
      ++summary.train_steps;
      if (++in_block == block) {
        step_times_.mark(in_block);
        in_block = 0;
      }
      if (batch_index++ % config_.log_interval == 0) {
        logged_loss = outputs[0].detach().clone();
        record.logged_samples = batch_index * rows * comm_->world_size();
      }
    }
    return logged_loss;
  }

  // After the probe: the epochs that fit by the slowest rank's step, or the case skipped, on every rank.
  void plan_epochs(double step_s, std::int64_t steps_per_epoch) {
    synchronize_device(cuda_);
    const double slowest_s = slowest_rank_s(&agreement_, step_s);
    epochs_ = planned_epochs(config_, slowest_s, steps_per_epoch, test_.size(), /*say=*/comm_->rank() == 0);
  }

  // This rank's shard of the test set; the sums of all ranks.
  void test(TrainingEpoch& record) {
    const std::int64_t n = test_.size();
    const auto options = at::TensorOptions().device(config_.device).dtype(at::kDouble);
    at::Tensor sums = at::zeros({2}, options);  // loss, correct
    for (std::int64_t start = 0; start < n; start += config_.test_batch) {
      const std::int64_t rows = std::min(config_.test_batch, n - start);
      Feed feed{{"x", test_.images.narrow(0, start, rows)}, {"y", test_.labels.narrow(0, start, rows)}};
      const auto outputs = test_executor_->run(test_program(rows), feed);
      sums[0] += outputs[0].to(at::kDouble);
      sums[1] += outputs[1].to(at::kDouble);
    }
    comm_->all_reduce_sum_(sums);
    const at::Tensor host = sums.cpu();
    const double counted = static_cast<double>(n * comm_->world_size());
    record.test_loss = host[0].item<double>() / counted;
    record.test_accuracy = host[1].item<double>() / counted;
  }

  // The test program for batches of `rows` (a shard's last batch may be shorter).
  const std::shared_ptr<const Program>& test_program(std::int64_t rows) {
    auto& program = test_programs_[rows];
    if (!program) program = build_test_program(rows, config_.device);
    return program;
  }

  TrainingConfig config_;
  std::shared_ptr<parallel::Communicator> comm_;
  bool cuda_;
  Split train_all_;
  Split test_all_;
  Split train_;
  Split test_;
  ModelStore store_;
  Engine engine_;
  std::shared_ptr<const Program> train_program_;
  std::map<std::int64_t, std::shared_ptr<const Program>> test_programs_;
  std::unique_ptr<Executor> train_executor_;
  std::unique_ptr<Executor> test_executor_;
  IntervalRecorder step_times_;
  SamplingAgreement agreement_ = parallel::sampling_agreement(*comm_);
  Clock::time_point training_started_;
  Clock::time_point probe_started_;
  int epochs_ = 0;  // the epochs this run trains: config_.epochs, or fewer under a time limit
};

}  // namespace

DataParallelTraining train_data_parallel(const TrainingConfig& config, const DataParallelSetup& setup) {
  if (!setup.communicator) throw EngineError("train_data_parallel: no communicator");
  const auto started = Clock::now();
  DataParallelTrainer trainer(config, setup);
  return trainer.run(started);
}

}  // namespace graphbench::mnist
