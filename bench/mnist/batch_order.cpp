#include "mnist/batch_order.h"

#include "graphbench/core/stats/random.h"

#include <utility>

namespace graphbench::bench {

const char* to_string(BatchOrder order) { return order == BatchOrder::kShuffled ? "shuffled" : "sequential"; }

at::Tensor epoch_order(std::int64_t n, BatchOrder order, std::uint64_t seed, int epoch) {
  at::Tensor positions = at::arange(n, at::TensorOptions().dtype(at::kLong));
  if (order == BatchOrder::kSequential || n < 2) return positions;
  // One stream per (seed, epoch): the epoch's index scrambled by the golden-ratio increment.
  stats::SplitMix64 rng(seed ^ (0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(epoch)));
  std::int64_t* p = positions.data_ptr<std::int64_t>();
  for (std::int64_t i = n - 1; i > 0; --i) {
    const auto j = static_cast<std::int64_t>(rng.below(static_cast<std::size_t>(i + 1)));
    std::swap(p[i], p[j]);
  }
  return positions;
}

}  // namespace graphbench::bench
