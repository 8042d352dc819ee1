// Sharding, gradient buckets and fingerprints: the pure parts of data-parallel training.
#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"
#include "graphbench/parallel/cases/replicas.h"
#include "support/catch.h"

#include <ATen/ATen.h>

using namespace graphbench;

TEST_CASE("a batch is split into equal contiguous shards, the remainder left out", "[dist]") {
  CHECK(parallel::shard_of(64, 0, 2).begin == 0);
  CHECK(parallel::shard_of(64, 1, 2).begin == 32);
  CHECK(parallel::shard_of(64, 1, 2).size == 32);
  // 60000 images over 7 ranks: 8571 each, the last 3 images in no shard.
  for (int r = 0; r < 7; ++r) {
    CHECK(parallel::shard_of(60000, r, 7).size == 8571);
    CHECK(parallel::shard_of(60000, r, 7).begin == 8571 * r);
  }
  at::Tensor global = at::arange(10).view({5, 2});
  at::Tensor second = parallel::shard_rows(global, 1, 2);
  CHECK(second.size(0) == 2);
  CHECK(second[0][0].item<std::int64_t>() == 4);  // rows 2 and 3
  CHECK(second[1][1].item<std::int64_t>() == 7);
  CHECK_THROWS(parallel::shard_of(10, 2, 2));
}

TEST_CASE("gradients are packed into buckets of at most the cap, one dtype each", "[dist]") {
  const TensorSpec big{{1024, 1024}, at::kFloat, at::kCPU};  // 4 MiB
  const TensorSpec small{{1024}, at::kFloat, at::kCPU};       // 4 KiB
  const TensorSpec half{{1024}, at::kHalf, at::kCPU};
  using Buckets = std::vector<std::vector<std::size_t>>;
  CHECK(parallel::plan_buckets({big, small, big, small}, parallel::kDefaultBucketBytes) == Buckets{{0, 1, 2, 3}});
  CHECK(parallel::plan_buckets({big, small, big, small}, std::size_t{5} << 20) == Buckets{{0, 1}, {2, 3}});
  // A gradient larger than the cap is a bucket of its own.
  CHECK(parallel::plan_buckets({small, big, small}, std::size_t{1} << 20) == Buckets{{0}, {1}, {2}});
  CHECK(parallel::plan_buckets({small, half, small}, parallel::kDefaultBucketBytes) == Buckets{{0}, {1}, {2}});
}

TEST_CASE("fingerprints tell bit-identical tensors from merely close ones", "[dist]") {
  at::Tensor a = at::randn({3, 4});
  at::Tensor b = a.clone();
  CHECK(parallel::fingerprint({a}) == parallel::fingerprint({b}));
  b[1][2] = std::nextafter(b[1][2].item<float>(), 1e9f);
  CHECK(parallel::fingerprint({a}) != parallel::fingerprint({b}));
  // Same bytes, other shape or dtype: other fingerprints.
  CHECK(parallel::fingerprint({a}) != parallel::fingerprint({a.view({4, 3})}));
  CHECK(parallel::fingerprint({at::zeros({2}, at::kInt)}) != parallel::fingerprint({at::zeros({2}, at::kFloat)}));
}
