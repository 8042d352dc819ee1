// The tutorial's whole run on the engine, printing its lines; batches gathered on the device by default,
// no sync within an epoch, and where the time went.
#pragma once

#include "mnist/batch_order.h"

#include "graphbench/engine/exec/executor.h"
#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/data_parallel.h"
#include "graphbench/engine/runner/workload.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace graphbench::mnist {

struct TrainingConfig {
  std::string data_dir;
  at::Device device = at::kCPU;
  int epochs = 10;
  std::int64_t batch = 64;
  std::int64_t test_batch = 1000;
  double lr = 0.01;
  double momentum = 0.5;
  int log_interval = 10;
  ExecutorKind train_executor = ExecutorKind::kEager;
  ExecutorKind test_executor = ExecutorKind::kEager;
  bool train_last_short_batch = false;  // false: skip it, as the tutorial does
  bool data_on_host = false;            // the host way: batches copied from host memory (--data-on-host)
  bench::BatchOrder order = bench::BatchOrder::kSequential;  // --shuffle: a seeded permutation per epoch
  std::uint64_t seed = 0;               // of the shuffled order
  std::ostream* out = nullptr;          // the tutorial's lines (null: silent)
  std::ostream* progress = nullptr;     // a terminal for the live progress line (null: none)
  double progress_interval_s = 0.1;     // least time between two progress updates
  // Under a time limit (plan_training): whole epochs inside it from the first step; unset: all run.
  std::optional<CaseContext::TrainingLimit> time_limit;
};

TrainingSummary train(const TrainingConfig& config);

// The whole run data-parallel (mnist_data_parallel.cpp): each rank its shard of every epoch and of the
// test set (sums all-reduced); rank 0 prints the tutorial's lines.
DataParallelTraining train_data_parallel(const TrainingConfig& config, const DataParallelSetup& setup);

// `text` on config.out, flushed (null: silent).
void print(const TrainingConfig& config, const std::string& text);
// Under config.time_limit, the probe's plan for steps of `step_s` (core/sampling/case_budget.h): the epochs
// that fit, its note said where `say`; CaseSkipped where none does.
int planned_epochs(const TrainingConfig& config, double step_s, std::int64_t steps_per_epoch,
                   std::int64_t test_images, bool say);
// Where a time limit cut the run to `epochs` of config.epochs: the summary's note, printed.
void note_epochs_cut(const TrainingConfig& config, int epochs, double longest_epoch_s, TrainingSummary& summary);

// The closing line: total time, its breakdown, steps and the median step.
std::string summary_line(const TrainingSummary& summary);

// The steps of one timing block of the median step: 100, or a whole epoch where an epoch has fewer
// (a block never spans an epoch's end, where the test pass runs), so that a short epoch is timed too.
std::int64_t timing_block_steps(std::int64_t steps_per_epoch);

// The libraries' one-time first calls: the warm-up before capture, plus the first block's excess.
double first_calls_seconds(const TrainingSummary& summary, const std::vector<double>& block_us_per_step,
                           std::int64_t steps_per_block);

}  // namespace graphbench::mnist
