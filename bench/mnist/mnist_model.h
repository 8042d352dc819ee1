// The LibTorch MNIST example's network as engine programs (the tutorial's torch::nn module, which
// they match: mnist/mnist_net.h, apart so that what builds programs skips torch::nn's headers).
#pragma once

#include "mnist/device_batches.h"

#include "graphbench/engine/exec/model_store.h"
#include "graphbench/engine/plan/program.h"
#include "graphbench/engine/runner/data_parallel.h"

#include <memory>
#include <string>
#include <vector>

namespace graphbench::mnist {

// "conv1.weight", "conv1.bias", ..., "fc2.bias": the module's parameter names, in its order.
const std::vector<std::string>& param_names();

// The weights of a freshly initialised Net (torch::nn's initialisation; seed first), by name.
ModelStore initial_store(at::Device device);

// The params' shapes by name (without making a Net, which draws random numbers).
const std::vector<std::int64_t>& param_shape(const std::string& name);

struct TrainProgramOptions {
  std::int64_t batch = 64;
  double lr = 0.01;
  double momentum = 0.5;
  bool dropout = true;  // false for validation: outputs comparable with eager
};

// One training step (forward, NLL loss, backward, SGD) fed "x" and "y", output "loss"; data-parallel too.
std::shared_ptr<const Program> build_train_program(const TrainProgramOptions& options, at::Device device,
                                                   const DataParallelSetup& setup = {});
// The test pass of one batch fed "x" and "y": outputs "loss_sum" and "correct".
std::shared_ptr<const Program> build_test_program(std::int64_t batch, at::Device device);

// Programs whose batch is gathered on the device (bench/mnist/device_batches.h): no inputs at all.
struct GatheredProgramOptions {
  const bench::DeviceBatches* batches = nullptr;
  bench::GatherShape shape;  // shape.rows is the batch
  std::string metrics;       // prefix of the device metrics: "<metrics>.loss_log", "<metrics>.loss_total", ...
  std::int64_t log_capacity = 0;  // training: steps per epoch (every step's loss is logged)
};
// build_train_program's step on the gathered batch, its loss logged in "<metrics>.loss_log"[step].
std::shared_ptr<const Program> build_gathered_train_program(const TrainProgramOptions& options,
                                                            const GatheredProgramOptions& gathered);
// The test pass summed into "<metrics>.loss_total" (float64) and ".correct_total" (int64), the outputs.
std::shared_ptr<const Program> build_gathered_test_program(const GatheredProgramOptions& gathered);

}  // namespace graphbench::mnist
