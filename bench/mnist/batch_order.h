// The order in which an epoch visits a data set: sequential (the tutorial's SequentialSampler), or
// a permutation per epoch drawn from the run's seed. The permutation comes from our own generator
// (splitmix64, Fisher-Yates), so it is the same on every platform, LibTorch version and data path:
// the device gather and the host path see the same batches.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>

namespace graphbench::bench {

enum class BatchOrder { kSequential, kShuffled };
const char* to_string(BatchOrder order);  // "sequential" | "shuffled"

// Positions 0..n-1 in the order of epoch `epoch` (from 1): an int64 CPU tensor of n elements.
at::Tensor epoch_order(std::int64_t n, BatchOrder order, std::uint64_t seed, int epoch);

}  // namespace graphbench::bench
