// The tutorial's whole MNIST run, data-parallel (engine/runner/data_parallel.h): every rank trains on its
// shard of every epoch (rank r: the r-th of N equal contiguous parts of the 60000 training
// images), batch 64 per rank, the gradients averaged inside each step; the test set is split the
// same way and the ranks' sums all-reduced. Rank 0 prints the tutorial's lines, with the samples
// of all ranks counted and rank 0's loss.
#pragma once

#include "mnist/mnist_training.h"

#include "graphbench/engine/runner/data_parallel.h"

namespace graphbench::mnist {

DataParallelTraining train_data_parallel(const TrainingConfig& config, const DataParallelSetup& setup);

}  // namespace graphbench::mnist
