// Sharding, gradient buckets and fingerprints: the pure parts of data-parallel training.
#include "graphbench/dist/gradient_all_reduce.h"
#include "graphbench/dist/replicas.h"
#include "support/catch.h"

#include <ATen/ATen.h>

using namespace graphbench;

TEST_CASE("a batch is split into equal contiguous shards, the remainder left out", "[dist]") {
  CHECK(dist::shard_of(64, 0, 2).begin == 0);
  CHECK(dist::shard_of(64, 1, 2).begin == 32);
  CHECK(dist::shard_of(64, 1, 2).size == 32);
  // 60000 images over 7 ranks: 8571 each, the last 3 images in no shard.
  for (int r = 0; r < 7; ++r) {
    CHECK(dist::shard_of(60000, r, 7).size == 8571);
    CHECK(dist::shard_of(60000, r, 7).begin == 8571 * r);
  }
  at::Tensor global = at::arange(10).view({5, 2});
  at::Tensor second = dist::shard_rows(global, 1, 2);
  CHECK(second.size(0) == 2);
  CHECK(second[0][0].item<std::int64_t>() == 4);  // rows 2 and 3
  CHECK(second[1][1].item<std::int64_t>() == 7);
  CHECK_THROWS(dist::shard_of(10, 2, 2));
}

TEST_CASE("gradients are packed into buckets of at most the cap, one dtype each", "[dist]") {
  const TensorSpec big{{1024, 1024}, at::kFloat, at::kCPU};  // 4 MiB
  const TensorSpec small{{1024}, at::kFloat, at::kCPU};       // 4 KiB
  const TensorSpec half{{1024}, at::kHalf, at::kCPU};
  using Buckets = std::vector<std::vector<std::size_t>>;
  CHECK(dist::plan_buckets({big, small, big, small}, dist::kDefaultBucketBytes) == Buckets{{0, 1, 2, 3}});
  CHECK(dist::plan_buckets({big, small, big, small}, std::size_t{5} << 20) == Buckets{{0, 1}, {2, 3}});
  // A gradient larger than the cap is a bucket of its own.
  CHECK(dist::plan_buckets({small, big, small}, std::size_t{1} << 20) == Buckets{{0}, {1}, {2}});
  CHECK(dist::plan_buckets({small, half, small}, dist::kDefaultBucketBytes) == Buckets{{0}, {1}, {2}});
}

TEST_CASE("fingerprints tell bit-identical tensors from merely close ones", "[dist]") {
  at::Tensor a = at::randn({3, 4});
  at::Tensor b = a.clone();
  CHECK(dist::fingerprint({a}) == dist::fingerprint({b}));
  b[1][2] = std::nextafter(b[1][2].item<float>(), 1e9f);
  CHECK(dist::fingerprint({a}) != dist::fingerprint({b}));
  // Same bytes, other shape or dtype: other fingerprints.
  CHECK(dist::fingerprint({a}) != dist::fingerprint({a.view({4, 3})}));
  CHECK(dist::fingerprint({at::zeros({2}, at::kInt)}) != dist::fingerprint({at::zeros({2}, at::kFloat)}));
}
