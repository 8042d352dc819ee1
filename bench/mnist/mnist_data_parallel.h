// The tutorial's whole MNIST run data-parallel: each rank trains on its equal contiguous shard of every
// epoch, batch 64 per rank; the test set split alike and the sums all-reduced. Rank 0 prints the
// tutorial's lines (samples of all ranks, its own loss).
#pragma once

#include "mnist/mnist_training.h"

#include "graphbench/engine/runner/data_parallel.h"

namespace graphbench::mnist {

DataParallelTraining train_data_parallel(const TrainingConfig& config, const DataParallelSetup& setup);

}  // namespace graphbench::mnist
