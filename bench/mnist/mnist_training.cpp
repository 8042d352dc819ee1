#include "mnist/mnist_training.h"

#include "mnist/mnist_data.h"
#include "mnist/mnist_model.h"
#include "mnist/mnist_training_data.h"
#include "mnist/training_progress.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/interrupt.h"
#include "graphbench/core/report/progress.h"
#include "graphbench/core/stats/statistics.h"
#include "graphbench/core/sampling/case_budget.h"
#include "graphbench/engine/runner/case_timing.h"
#include "graphbench/engine/timing/step_timer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace graphbench::mnist {

namespace {

using Clock = std::chrono::steady_clock;

// Times consecutive phases: each lap() returns the seconds since the previous one.
class Laps {
 public:
  double lap() {
    const double seconds = seconds_since(last_);
    last_ = Clock::now();
    return seconds;
  }

 private:
  Clock::time_point last_ = Clock::now();
};

// The test pass may hold state (the device way's counter and totals): fixed buffers for it too.
Policy test_policy() {
  Policy policy = Policy::inference();
  policy.static_roles = {Role::kInput, Role::kParam, Role::kState};
  return policy;
}

// Device time of blocks of this many steps, marked without synchronising: the median step.
constexpr std::int64_t kStepBlock = 100;

class Trainer {
 public:
  explicit Trainer(const TrainingConfig& config)
      : config_(config), cuda_(config.device.is_cuda()), step_times_(cuda_) {}

  TrainingSummary run() {
    TrainingSummary summary;
    summary.context_seconds = start_device();
    const auto started = Clock::now();
    Laps laps;
    summary.train_executor = to_string(config_.train_executor);
    summary.test_executor = to_string(config_.test_executor);
    summary.batch_order = bench::to_string(config_.order);

    // Decoding goes on in the background while the model is set up and captured.
    SplitsLoader loader(config_.data_dir, config_.data_on_host ? at::Device(at::kCPU) : config_.device);
    Splits splits = loader.splits();
    summary.load_seconds = laps.lap();

    DataOptions options;
    options.device = config_.device;
    options.train = BatchPlan{splits.train.size(), config_.batch, config_.train_last_short_batch};
    options.test = BatchPlan{splits.test.size(), config_.test_batch, true};
    options.order = config_.order;
    options.seed = config_.seed;
    options.program = TrainProgramOptions{config_.batch, config_.lr, config_.momentum, true};
    check_something_to_do(options);
    ModelStore store = initial_store(config_.device);
    Engine engine(store);
    std::unique_ptr<TrainingData> data = config_.data_on_host ? make_host_training_data(std::move(splits), options)
                                                              : make_device_training_data(std::move(splits), options, store);
    summary.data_placement = data->placement();
    // A failed capture falls back to eager for that key: the run goes on, and says so.
    auto train_executor = make_executor(config_.train_executor, engine, Policy::train(), ExecutorOptions{3, true, {}});
    auto test_executor = make_executor(config_.test_executor, engine, test_policy(), ExecutorOptions{3, true, {}});
    summary.setup_seconds = laps.lap();

    data->prepare(*train_executor, *test_executor);
    synchronize_device(cuda_);
    summary.capture_seconds = laps.lap();
    summary.graph_capture_seconds = (train_executor->total_capture_ms() + test_executor->total_capture_ms()) * 1e-3;

    loader.finish();
    synchronize_device(cuda_);
    summary.load_seconds += laps.lap();
    summary.decode_seconds = loader.decode_seconds();

    bench::TrainingProgress progress(config_.progress, config_.epochs, options.train.steps(), config_.batch,
                                     options.train.size, config_.progress_interval_s);
    training_started_ = Clock::now();
    epochs_ = config_.epochs;
    test_images_ = options.test.size;
    double longest_epoch_s = 0.0;
    for (int epoch = 1; epoch <= epochs_; ++epoch) {
      TrainingEpoch record;
      record.epoch = epoch;
      record.dataset_size = options.train.size;
      train_epoch(*data, *train_executor, options.train, progress, record);
      record.train_seconds = laps.lap();
      summary.train_steps += options.train.steps();
      summary.skipped_batches += options.train.skipped();
      progress.clear();
      print(config_, fmt::format("Train Epoch: {} [{:5d}/{:5d}] Loss: {:.4f}\n", epoch, record.logged_samples,
                                 record.dataset_size, record.logged_loss));

      const TestTotals totals = data->test(*test_executor);
      const auto counted = static_cast<double>(options.test.size);
      record.test_loss = totals.loss_sum.item<double>() / counted;
      record.test_accuracy = static_cast<double>(totals.correct.item<std::int64_t>()) / counted;
      record.test_seconds = laps.lap();
      print(config_, fmt::format("Test set: Average loss: {:.4f} | Accuracy: {:.3f}\n", record.test_loss, record.test_accuracy));
      summary.train_seconds += record.train_seconds;
      summary.test_seconds += record.test_seconds;
      summary.epochs.push_back(record);
      longest_epoch_s = std::max(longest_epoch_s, record.train_seconds + record.test_seconds);
      if (config_.time_limit && epoch < epochs_ &&
          !another_epoch_fits(seconds_since(training_started_), longest_epoch_s, config_.time_limit->seconds)) {
        epochs_ = epoch;
      }
    }
    note_epochs_cut(config_, epochs_, longest_epoch_s, summary);

    const auto per_step = step_times_.per_step_us();
    if (!per_step.empty()) summary.median_step_us = stats::summarize(per_step).median;
    const std::int64_t block = timing_block_steps(options.train.steps());
    summary.first_calls_seconds = first_calls_seconds(summary, per_step, block);
    summary.step_samples_us = per_step;  // the record's raw samples, which compare gates on
    summary.steps_per_block = block;
    summary.total_seconds = seconds_since(started);
    summary.other_seconds = summary.total_seconds - summary.load_seconds - summary.setup_seconds -
                            summary.capture_seconds - summary.train_seconds - summary.test_seconds;
    print(config_, summary_line(summary) + "\n");
    for (const auto& reason : train_executor->fallback_reasons()) print(config_, "warning: training ran eagerly: " + reason + "\n");
    for (const auto& reason : test_executor->fallback_reasons()) print(config_, "warning: testing ran eagerly: " + reason + "\n");
    return summary;
  }

 private:
  // Creates the device's context before the clock starts (the process's cost, not the run's).
  double start_device() {
    if (!cuda_) return 0.0;
    const auto start = Clock::now();
    at::empty({1}, at::TensorOptions().device(config_.device));
    synchronize_device(cuda_);
    return seconds_since(start);
  }

  // A run with no training step or test image would report zeros: it fails here, before set-up.
  static void check_something_to_do(const DataOptions& options) {
    if (options.train.steps() == 0) {
      throw std::runtime_error(fmt::format(
          "trained nothing: {} training image(s), fewer than one batch of {} (the short last batch is skipped; "
          "--last-batch capture trains on it)",
          options.train.size, options.train.batch));
    }
    if (options.test.steps() == 0) throw std::runtime_error("tested nothing: the test split has no images");
  }

  // Queues every step of one epoch, then reads its last logged loss (the epoch's one sync).
  void train_epoch(TrainingData& data, Executor& executor, const BatchPlan& plan, bench::TrainingProgress& progress,
                   TrainingEpoch& record) {
    data.begin_epoch(record.epoch);
    const std::int64_t block = timing_block_steps(plan.steps());
    std::int64_t in_block = 0;
    step_times_.mark(0);
    std::int64_t logged = 0;
    const auto loss_of = [&data](std::int64_t step) { return data.loss_of(step); };
    for (std::int64_t step = 0; step < plan.steps(); ++step) {
      if (stop_requested()) {  // SIGINT/SIGTERM: stop after the current step, with the device idle
        synchronize_device(cuda_);
        throw_if_stop_requested();
      }
      const bool keep = step % std::max(config_.log_interval, 1) == 0;
      if (record.epoch == 1 && config_.time_limit) {
        probe_step(data, executor, step, keep, plan.steps());
      } else {
        data.train_step(executor, step, keep);
      }
      if (keep) logged = step;
      if (++in_block == block) {
        step_times_.mark(in_block);
        in_block = 0;
      }
      if (progress.active()) progress.step_queued(record.epoch, logged, loss_of);
      if (record.epoch == 1 && !config_.time_limit) {
        const std::string note = long_run_note(step + 1, plan.steps());
        if (!note.empty()) {
          progress.clear();
          print(config_, note);
        }
      }
    }
    if (plan.steps() == 0) return;
    // The tutorial's [59584/60000]: batches so far times this batch's size.
    record.logged_samples = (logged + 1) * plan.rows(logged);
    record.logged_loss = data.loss_of(logged).item<double>();
  }

  // Under a time limit the first steps are the probe (kTrainingProbeSteps after the first, which pays
  // one-time costs), then the plan (core/sampling/case_budget.h): the epochs that fit, or a skip.
  void probe_step(TrainingData& data, Executor& executor, std::int64_t step, bool keep, std::int64_t steps_per_epoch) {
    // Step 0 untimed (it pays one-time costs), steps 1 to n timed; with one step an epoch, step 0.
    const std::int64_t first_timed = steps_per_epoch > 1 ? 1 : 0;
    const std::int64_t n = steps_per_epoch > 1 ? std::min<std::int64_t>(kTrainingProbeSteps, steps_per_epoch - 1) : 1;
    if (step == first_timed) {
      synchronize_device(cuda_);
      probe_started_ = Clock::now();
    }
    data.train_step(executor, step, keep);
    if (step != first_timed + n - 1) return;
    synchronize_device(cuda_);
    const double step_s = seconds_since(probe_started_) / static_cast<double>(n);
    epochs_ = planned_epochs(config_, step_s, steps_per_epoch, test_images_, /*say=*/true);
  }

  // After the first epoch's second block of steps, says how long the epochs will take where that is
  // long (host time: where the device is the bottleneck the host runs ahead, and it stays quiet).
  std::string long_run_note(std::int64_t steps_done, std::int64_t steps_per_epoch) {
    if (steps_done == kStepBlock) second_block_start_ = Clock::now();
    if (steps_done != 2 * kStepBlock) return "";
    const double per_step = seconds_since(second_block_start_) / kStepBlock;
    const double total = per_step * static_cast<double>(steps_per_epoch) * config_.epochs;
    if (total < kLongCaseSeconds) return "";
    return fmt::format("note: training takes about {} on this device ({} epoch{} of {} steps, {:.1f} ms each){}\n",
                       format_duration(total), config_.epochs, config_.epochs == 1 ? "" : "s", steps_per_epoch,
                       per_step * 1e3, config_.epochs > 1 ? "; --epochs 1 runs one epoch" : "");
  }

  TrainingConfig config_;
  bool cuda_;
  IntervalRecorder step_times_;
  Clock::time_point second_block_start_;
  Clock::time_point training_started_;
  Clock::time_point probe_started_;
  int epochs_ = 0;              // the epochs this run trains: config_.epochs, or fewer under a time limit
  std::int64_t test_images_ = 0;
};

}  // namespace

std::int64_t timing_block_steps(std::int64_t steps_per_epoch) {
  return std::clamp<std::int64_t>(steps_per_epoch, 1, kStepBlock);
}

double first_calls_seconds(const TrainingSummary& s, const std::vector<double>& block_us_per_step,
                           std::int64_t steps_per_block) {
  double seconds = std::max(0.0, s.capture_seconds - s.graph_capture_seconds);
  if (!block_us_per_step.empty() && s.median_step_us > 0) {
    const double above = (block_us_per_step.front() - s.median_step_us) * static_cast<double>(steps_per_block) * 1e-6;
    seconds += std::max(0.0, above);
  }
  return seconds;
}

std::string summary_line(const TrainingSummary& s) {
  // Loading and capture count, as they did in the tutorial's `time ./mnist`.
  std::string line = fmt::format(
      "Total time: {:.2f} s (load {:.2f} s, setup {:.2f} s, capture {:.2f} s, training {:.2f} s, testing {:.2f} s, "
      "other {:.2f} s); {} steps, median step {:.0f} us (x steps: {:.2f} s); {} short batches skipped; "
      "decoding took {:.2f} s beside setup and capture",
      s.total_seconds, s.load_seconds, s.setup_seconds, s.capture_seconds, s.train_seconds, s.test_seconds,
      s.other_seconds, s.train_steps, s.median_step_us, static_cast<double>(s.train_steps) * s.median_step_us * 1e-6,
      s.skipped_batches, s.decode_seconds);
  if (s.graph_capture_seconds > 0) {
    line += fmt::format("; of capture, {:.3f} s captured and instantiated the graphs, the rest warmed up", s.graph_capture_seconds);
  }
  if (s.first_calls_seconds > 0) {
    line += fmt::format("; the libraries' first calls took {:.2f} s of it (once per process)", s.first_calls_seconds);
  }
  if (s.context_seconds > 0) line += fmt::format("; the device context {:.2f} s before", s.context_seconds);
  return line;
}

void print(const TrainingConfig& config, const std::string& text) {
  if (config.out != nullptr) *config.out << text << std::flush;
}

int planned_epochs(const TrainingConfig& config, double step_s, std::int64_t steps_per_epoch,
                   std::int64_t test_images, bool say) {
  const CaseContext::TrainingLimit& limit = *config.time_limit;
  const TrainingPlan plan = plan_training(step_s, steps_per_epoch, test_pass_seconds(step_s, config.batch, test_images),
                                          config.epochs, limit.seconds, limit.variants);
  if (plan.epochs == 0) throw CaseSkipped(plan.skip_reason);
  if (say && limit.say) limit.say(plan.note);
  return plan.epochs;
}

void note_epochs_cut(const TrainingConfig& config, int epochs, double longest_epoch_s, TrainingSummary& summary) {
  if (!config.time_limit || epochs >= config.epochs) return;
  summary.time_limit_note = epochs_cut_warning(epochs, config.epochs, longest_epoch_s, config.time_limit->seconds,
                                               config.time_limit->variants);
  print(config, fmt::format("note: {}\n", summary.time_limit_note));
}

TrainingSummary train(const TrainingConfig& config) {
  Trainer trainer(config);
  return trainer.run();
}

}  // namespace graphbench::mnist
