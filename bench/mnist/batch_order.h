// The order an epoch visits a data set: sequential (the tutorial's), or a permutation per epoch from
// the run's seed by our own generator (splitmix64, Fisher-Yates): the same everywhere and on every path.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>

namespace graphbench::bench {

enum class BatchOrder { kSequential, kShuffled };
const char* to_string(BatchOrder order);  // "sequential" | "shuffled"

// Positions 0..n-1 in the order of epoch `epoch` (from 1): an int64 CPU tensor of n elements.
at::Tensor epoch_order(std::int64_t n, BatchOrder order, std::uint64_t seed, int epoch);

}  // namespace graphbench::bench
