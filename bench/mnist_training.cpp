#include "mnist_training.h"

#include "mnist_data.h"
#include "mnist_model.h"

#include "graphbench/core/interrupt.h"
#include "graphbench/stats/statistics.h"
#include "graphbench/timing/step_timer.h"

#include <fmt/format.h>

#include <chrono>

namespace graphbench::mnist {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Device time is read for blocks of this many steps (the record's raw samples).
constexpr std::int64_t kBlock = 100;

struct EpochTrainResult {
  std::int64_t steps = 0;
  std::int64_t skipped = 0;
  std::int64_t logged_samples = 0;
  double logged_loss = 0.0;
};

class Trainer {
 public:
  explicit Trainer(const TrainingConfig& config)
      : config_(config),
        cuda_(config.device.is_cuda()),
        train_data_(load_split(config.data_dir, /*train=*/true, config.device)),
        test_data_(load_split(config.data_dir, /*train=*/false, config.device)),
        store_(initial_store(config.device)),
        engine_(store_),
        train_program_(build_train_program(TrainProgramOptions{config.batch, config.lr, config.momentum, true}, config.device)),
        test_program_(build_test_program(config.test_batch, config.device)),
        // A failed capture falls back to eager for that key: the run goes on, and says so.
        train_executor_(make_executor(config.train_executor, engine_, Policy::train(), ExecutorOptions{3, true})),
        test_executor_(make_executor(config.test_executor, engine_, Policy::inference(), ExecutorOptions{3, true})),
        step_times_(cuda_) {}

  TrainingSummary run(Clock::time_point started) {
    TrainingSummary summary;
    summary.train_executor = to_string(config_.train_executor);
    summary.test_executor = to_string(config_.test_executor);
    for (int epoch = 1; epoch <= config_.epochs; ++epoch) {
      TrainingEpoch record;
      record.epoch = epoch;
      record.dataset_size = train_data_.size();
      const auto train_start = Clock::now();
      EpochTrainResult result = train_epoch(epoch);
      synchronize_device(cuda_);
      record.train_seconds = seconds_since(train_start);
      record.logged_samples = result.logged_samples;
      record.logged_loss = result.logged_loss;
      summary.train_steps += result.steps;
      summary.skipped_batches += result.skipped;
      print(fmt::format("{}Train Epoch: {} [{:5d}/{:5d}] Loss: {:.4f}\n", config_.progress ? "\r" : "", epoch,
                        record.logged_samples, record.dataset_size, record.logged_loss));
      const auto test_start = Clock::now();
      test(record);
      record.test_seconds = seconds_since(test_start);
      print(fmt::format("Test set: Average loss: {:.4f} | Accuracy: {:.3f}\n", record.test_loss, record.test_accuracy));
      summary.epochs.push_back(record);
    }
    summary.total_seconds = seconds_since(started);
    const auto per_step = step_times_.per_step_us();
    if (!per_step.empty()) summary.median_step_us = stats::summarize(per_step).median;
    summary.step_samples_us = per_step;
    summary.steps_per_block = kBlock;
    double train_seconds = 0.0;
    double test_seconds = 0.0;
    for (const auto& e : summary.epochs) {
      train_seconds += e.train_seconds;
      test_seconds += e.test_seconds;
    }
    // What `time ./mnist` showed for the tutorial: the whole run, data loading and capture included.
    print(fmt::format("Total time: {:.2f} s (training {:.2f} s, testing {:.2f} s, the rest loading and setup); "
                      "{} steps, median step {:.0f} us; {} short batches skipped\n",
                      summary.total_seconds, train_seconds, test_seconds, summary.train_steps, summary.median_step_us,
                      summary.skipped_batches));
    for (const auto& reason : train_executor_->fallback_reasons()) print("warning: training ran eagerly: " + reason + "\n");
    for (const auto& reason : test_executor_->fallback_reasons()) print("warning: testing ran eagerly: " + reason + "\n");
    return summary;
  }

 private:
  void print(const std::string& text) {
    if (config_.out != nullptr) *config_.out << text << std::flush;
  }

  EpochTrainResult train_epoch(int epoch) {
    EpochTrainResult result;
    const std::int64_t n = train_data_.size();
    at::Tensor logged_loss;
    // Device time of blocks of steps, marked without synchronising.
    std::int64_t in_block = 0;
    step_times_.mark(0);
    std::int64_t batch_index = 0;
    for (std::int64_t start = 0; start < n; start += config_.batch) {
      const std::int64_t rows = std::min(config_.batch, n - start);
      if (rows != config_.batch && !config_.train_last_short_batch) {
        ++result.skipped;
        continue;
      }
      if (stop_requested()) {  // SIGINT/SIGTERM: stop after the current step, with the device idle
        synchronize_device(cuda_);
        throw_if_stop_requested();
      }
      Feed feed{{"x", train_data_.images.narrow(0, start, rows)}, {"y", train_data_.labels.narrow(0, start, rows)}};
      const auto outputs = train_executor_->run(train_program_, feed);
      ++result.steps;
      if (++in_block == kBlock) {
        step_times_.mark(in_block);
        in_block = 0;
      }
      if (batch_index++ % config_.log_interval == 0) {
        // The outputs are slots the next step overwrites: keep a device copy, read it at the end.
        logged_loss = outputs[0].detach().clone();
        result.logged_samples = batch_index * rows;
        if (config_.progress) {
          print(fmt::format("\rTrain Epoch: {} [{:5d}/{:5d}] Loss: {:.4f}", epoch, result.logged_samples, n,
                            logged_loss.item<double>()));
        }
      }
    }
    if (logged_loss.defined()) result.logged_loss = logged_loss.item<double>();
    return result;
  }

  void test(TrainingEpoch& record) {
    const std::int64_t n = test_data_.size();
    at::Tensor total_loss = at::zeros({}, at::TensorOptions().device(config_.device).dtype(at::kDouble));
    at::Tensor total_correct = at::zeros({}, at::TensorOptions().device(config_.device).dtype(at::kLong));
    std::int64_t counted = 0;
    for (std::int64_t start = 0; start < n; start += config_.test_batch) {
      const std::int64_t rows = std::min(config_.test_batch, n - start);
      Feed feed{{"x", test_data_.images.narrow(0, start, rows)}, {"y", test_data_.labels.narrow(0, start, rows)}};
      const auto outputs = test_executor_->run(test_program_, feed);
      total_loss += outputs[0];
      total_correct += outputs[1];
      counted += rows;
    }
    record.test_loss = total_loss.item<double>() / static_cast<double>(counted);
    record.test_accuracy = static_cast<double>(total_correct.item<std::int64_t>()) / static_cast<double>(counted);
  }

  TrainingConfig config_;
  bool cuda_;
  Split train_data_;
  Split test_data_;
  ModelStore store_;
  Engine engine_;
  std::shared_ptr<const Program> train_program_;
  std::shared_ptr<const Program> test_program_;
  std::unique_ptr<Executor> train_executor_;
  std::unique_ptr<Executor> test_executor_;
  IntervalRecorder step_times_;
};

}  // namespace

TrainingSummary train(const TrainingConfig& config) {
  const auto started = Clock::now();  // data loading and capture count: the tutorial's `time` did
  Trainer trainer(config);
  return trainer.run(started);
}

}  // namespace graphbench::mnist
