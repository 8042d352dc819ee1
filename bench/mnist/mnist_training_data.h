// Where a run's batches come from and how its losses are collected:
//   device (default)  splits on the device; programs gather their batch at a device counter, log
//                     every loss on the device, and the test sums there: a step is one launch
//   host              splits in host memory, every batch copied and fed, logged losses kept as
//                     device copies (--data-on-host: the tutorial's way)
// Neither synchronises during an epoch: losses are read at its end.
#pragma once

#include "mnist/batch_order.h"
#include "mnist/mnist_data.h"
#include "mnist/mnist_model.h"

#include "graphbench/engine/exec/executor.h"
#include "graphbench/engine/exec/model_store.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <memory>

namespace graphbench::mnist {

// The batches of one epoch over a split of `size` samples.
struct BatchPlan {
  std::int64_t size = 0;
  std::int64_t batch = 1;
  bool use_short = false;  // train on (or test) the short last batch too

  std::int64_t full_steps() const { return size / batch; }
  std::int64_t short_rows() const { return size % batch; }
  bool has_short() const { return use_short && short_rows() > 0; }
  std::int64_t steps() const { return full_steps() + (has_short() ? 1 : 0); }
  std::int64_t rows(std::int64_t step) const { return step < full_steps() ? batch : short_rows(); }
  std::int64_t skipped() const { return !use_short && short_rows() > 0 ? 1 : 0; }
};

struct DataOptions {
  at::Device device = at::kCPU;  // where the programs run
  BatchPlan train;
  BatchPlan test;
  bench::BatchOrder order = bench::BatchOrder::kSequential;
  std::uint64_t seed = 0;
  TrainProgramOptions program;
};

// The test pass's totals, device scalars: summed loss (float64) and correct answers (int64).
struct TestTotals {
  at::Tensor loss_sum;
  at::Tensor correct;
};

class TrainingData {
 public:
  virtual ~TrainingData() = default;
  virtual const char* placement() const = 0;  // "device" or "host"

  // Binds (and with a graph executor captures) every program: the run's "capture" time.
  virtual void prepare(Executor& train, Executor& test) = 0;
  // Sets the epoch's order (epochs count from 1) and restarts at its first batch.
  virtual void begin_epoch(int epoch) = 0;
  // Queues training step `step` of the epoch; `keep_loss`: loss_of(step) will be asked for.
  virtual void train_step(Executor& train, std::int64_t step, bool keep_loss) = 0;
  // Step `step`'s loss, a 0-dim device tensor valid once the step is queued.
  virtual at::Tensor loss_of(std::int64_t step) const = 0;
  // Queues the test pass over the whole test split.
  virtual TestTotals test(Executor& test) = 0;
};

// `splits` on options.device (device way: its state into `store`), or in host memory.
std::unique_ptr<TrainingData> make_device_training_data(Splits splits, const DataOptions& options, ModelStore& store);
std::unique_ptr<TrainingData> make_host_training_data(Splits splits, const DataOptions& options);

}  // namespace graphbench::mnist
