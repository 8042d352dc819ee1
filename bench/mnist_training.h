// The tutorial's whole run on the engine: epochs of training (eager, static or graph) each
// followed by a test pass (eager or graph) that reads the params the training updated, printing
// the tutorial's lines.
#pragma once

#include "graphbench/exec/executor.h"
#include "graphbench/record/result_record.h"

#include <ostream>
#include <string>

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
  std::ostream* out = nullptr;          // the tutorial's lines (null: silent)
  bool progress = false;                // a live progress line (stdout is a terminal)
};

TrainingSummary train(const TrainingConfig& config);

}  // namespace graphbench::mnist
