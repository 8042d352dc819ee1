// The whole MNIST run data-parallel: each rank its shard of every epoch and of the test set (sums
// all-reduced); rank 0 prints the tutorial's lines.
#pragma once

#include "mnist/mnist_training.h"

#include "graphbench/engine/runner/data_parallel.h"

namespace graphbench::mnist {

DataParallelTraining train_data_parallel(const TrainingConfig& config, const DataParallelSetup& setup);

}  // namespace graphbench::mnist
