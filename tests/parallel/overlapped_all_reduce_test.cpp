// The gradient all-reduce overlapped with the backward pass (parallel::backward_and_average), on
// CPU ranks over Gloo: the buckets follow backward's order and the cap, each is launched while
// backward still has gradients to produce, and the averages equal the plain sum over the ranks
// divided by their number, bit for bit; bfloat16 compression stays within its rounding bound.
#include "parallel/parallel_test_util.h"

#include <cmath>
#include <numeric>

using namespace graphbench;
using namespace graphbench::dist_test;

namespace {

// One rank's two steps: the data-parallel step's averaged gradients, and the gradients of the
// rank's own shard at the same params (a program without all-reduce), for each step.
struct TwoSteps {
  std::vector<at::Tensor> own[2];
  std::vector<at::Tensor> averaged[2];
  GradientBucketLog log[2];
};

TwoSteps two_steps(const std::shared_ptr<parallel::Communicator>& comm, ExecutorKind kind, const StepSync& sync) {
  const int world = comm->world_size();
  ModelStore store = mlp_params(kMlp);
  const test_util::Batch global = mlp_batch(kMlp, kMlp.batch * world, 3);
  const Feed feed = test_util::feed_of(shard(global, comm->rank(), world));
  auto program = mlp_step(kMlp, comm, sync);
  auto alone = mlp_step(kMlp, nullptr);
  Engine engine(store);
  auto executor = make_executor(kind, engine, Policy::train());
  TwoSteps out;
  for (int step = 0; step < 2; ++step) {
    ModelStore own_store = store.clone();
    Engine own_engine(own_store);
    out.own[step] = gradients_after_loss(make_executor(ExecutorKind::kEager, own_engine, Policy::train())->run(alone, feed));
    out.averaged[step] = gradients_after_loss(executor->run(program, feed));
    out.log[step] = *sync.log;
  }
  comm->barrier();
  return out;
}

std::size_t bytes_of(const std::vector<std::size_t>& bucket) {
  const auto specs = mlp_param_specs(kMlp);
  std::size_t bytes = 0;
  for (std::size_t i : bucket) bytes += static_cast<std::size_t>(specs[i].numel()) * sizeof(float);
  return bytes;
}

// Gradients still to come when each bucket's last gradient arrives, in backward's order.
std::vector<std::size_t> to_come_after(const std::vector<std::vector<std::size_t>>& buckets, std::size_t total) {
  std::vector<std::size_t> out;
  std::size_t seen = 0;
  for (const auto& bucket : buckets) {
    seen += bucket.size();
    out.push_back(total - seen);
  }
  return out;
}

}  // namespace

TEST_CASE("overlapped: buckets in backward's order within the cap, launched during backward, averages exact",
          "[dist][gloo]") {
  const ExecutorKind kind = GENERATE(ExecutorKind::kEager, ExecutorKind::kStatic);
  INFO("executor " << to_string(kind));
  constexpr int kWorld = 2;
  auto ranks = run_world<TwoSteps>(kWorld, [&](const parallel::RankEnv& env) {
    StepSync sync{{kMlpThreeBuckets, false}, /*overlap=*/true, std::make_shared<GradientBucketLog>()};
    return two_steps(connect_cpu(env), kind, sync);
  });
  for (int r = 0; r < kWorld; ++r) {
    INFO("rank " << r);
    const TwoSteps& run = ranks[static_cast<std::size_t>(r)];
    for (int step = 0; step < 2; ++step) {
      INFO("step " << step + 1);
      const GradientBucketLog& log = run.log[step];
      // Backward produces the last layer's gradients first, the bias before the weight.
      CHECK(log.order == std::vector<std::size_t>{5, 4, 3, 2, 1, 0});
      CHECK(log.buckets == std::vector<std::vector<std::size_t>>{{5, 4, 3}, {2, 1}, {0}});
      std::vector<std::size_t> flat;
      for (const auto& bucket : log.buckets) {
        CHECK((bytes_of(bucket) <= kMlpThreeBuckets || bucket.size() == 1));
        flat.insert(flat.end(), bucket.begin(), bucket.end());
      }
      CHECK(flat == log.order);
      // The op's first run learns the order and averages after backward (the eager executor's first
      // step; the static executor warms its program up first); later runs launch each bucket as
      // soon as backward has filled it, while later layers' gradients are still to come.
      if (step == 0 && kind == ExecutorKind::kEager) {
        CHECK(log.pending_at_launch == std::vector<std::size_t>{0, 0, 0});
      } else {
        CHECK(log.pending_at_launch == to_come_after(log.buckets, 6));
        CHECK(log.pending_at_launch.front() > 0);
      }
      // The same numbers as summing every rank's gradients and dividing by the ranks (two ranks:
      // a + b is b + a, so bit for bit).
      for (std::size_t i = 0; i < 6; ++i) {
        const at::Tensor expected = (ranks[0].own[step][i] + ranks[1].own[step][i]) / 2.0;
        INFO(mlp_param_names()[i] << ", max abs diff " << test_util::max_abs_diff(run.averaged[step][i], expected));
        CHECK(at::equal(run.averaged[step][i], expected));
      }
    }
  }
  // The shards' gradients differ: the average is not one rank's own.
  CHECK_FALSE(at::equal(ranks[0].own[1][0], ranks[1].own[1][0]));
}

TEST_CASE("overlapped and after-backward averaging give the same numbers, whatever the buckets", "[dist][gloo]") {
  const std::size_t cap = GENERATE(std::size_t{1}, kMlpThreeBuckets, parallel::kDefaultBucketBytes);
  INFO("bucket cap " << cap << " bytes");
  constexpr int kWorld = 2;
  auto ranks = run_world<std::vector<TwoSteps>>(kWorld, [&](const parallel::RankEnv& env) {
    const auto comm = connect_cpu(env);
    std::vector<TwoSteps> both;
    for (const bool overlap : {false, true}) {
      StepSync sync{{cap, false}, overlap, std::make_shared<GradientBucketLog>()};
      both.push_back(two_steps(comm, ExecutorKind::kEager, sync));
    }
    return both;
  });
  for (const auto& rank : ranks) {
    const TwoSteps& after = rank[0];
    const TwoSteps& overlapped = rank[1];
    // After backward: the params' order; overlapped: backward's.
    CHECK(after.log[1].order == std::vector<std::size_t>{0, 1, 2, 3, 4, 5});
    CHECK(overlapped.log[1].order == std::vector<std::size_t>{5, 4, 3, 2, 1, 0});
    CHECK(after.log[1].pending_at_launch == std::vector<std::size_t>(after.log[1].buckets.size(), 0));
    for (int step = 0; step < 2; ++step) {
      for (std::size_t i = 0; i < 6; ++i) {
        INFO("step " << step + 1 << ", " << mlp_param_names()[i]);
        CHECK(at::equal(overlapped.averaged[step][i], after.averaged[step][i]));
      }
    }
  }
  if (cap == 1) CHECK(ranks[0][1].log[1].buckets.size() == 6);  // every gradient alone: reduced in place
  if (cap == parallel::kDefaultBucketBytes) CHECK(ranks[0][1].log[1].buckets.size() == 1);
}

TEST_CASE("bfloat16 compression: each average within two roundings to 8 bits of the exact one", "[dist][gloo]") {
  const bool overlap = GENERATE(false, true);
  INFO((overlap ? "overlapped" : "after backward"));
  constexpr int kWorld = 2;
  auto ranks = run_world<TwoSteps>(kWorld, [&](const parallel::RankEnv& env) {
    StepSync sync{{kMlpThreeBuckets, /*bfloat16=*/true}, overlap, std::make_shared<GradientBucketLog>()};
    return two_steps(connect_cpu(env), ExecutorKind::kEager, sync);
  });
  // Each rank's gradient is cast to bfloat16 and halved (one rounding, relative 2^-8), the halves
  // summed and rounded to bfloat16 again (relative 2^-8 of the sum).
  constexpr double kUnitRoundoff = 1.0 / 256.0;
  for (int step = 0; step < 2; ++step) {
    for (std::size_t i = 0; i < 6; ++i) {
      INFO("step " << step + 1 << ", " << mlp_param_names()[i]);
      const at::Tensor a = ranks[0].own[step][i].to(at::kDouble);
      const at::Tensor b = ranks[1].own[step][i].to(at::kDouble);
      const at::Tensor exact = (a + b) / 2.0;
      const at::Tensor bound = kUnitRoundoff * ((a.abs() + b.abs()) / 2.0 + exact.abs()) * (1.0 + kUnitRoundoff);
      for (const TwoSteps& rank : ranks) {
        const at::Tensor compressed = rank.averaged[step][i];
        CHECK(compressed.scalar_type() == at::kFloat);
        INFO("max abs diff " << test_util::max_abs_diff(compressed.to(at::kDouble), exact));
        CHECK(((compressed.to(at::kDouble) - exact).abs() <= bound).all().item<bool>());
        // Reduced in bfloat16: every value is one.
        CHECK(at::equal(compressed, compressed.to(at::kBFloat16).to(at::kFloat)));
        CHECK(at::equal(compressed, ranks[0].averaged[step][i]));  // the same on every rank
      }
    }
  }
  // Compression changed the numbers: the exact average is not all bfloat16 values.
  const at::Tensor exact = (ranks[0].own[1][0] + ranks[1].own[1][0]) / 2.0;
  CHECK_FALSE(at::equal(ranks[0].averaged[1][0], exact));
}

TEST_CASE("three ranks: the overlapped average is the same on every rank and the mean of the three", "[dist][gloo]") {
  constexpr int kWorld = 3;
  auto ranks = run_world<TwoSteps>(kWorld, [&](const parallel::RankEnv& env) {
    StepSync sync{{kMlpThreeBuckets, false}, /*overlap=*/true, std::make_shared<GradientBucketLog>()};
    return two_steps(connect_cpu(env), ExecutorKind::kEager, sync);
  });
  for (std::size_t i = 0; i < 6; ++i) {
    INFO(mlp_param_names()[i]);
    const at::Tensor mean = (ranks[0].own[1][i] + ranks[1].own[1][i] + ranks[2].own[1][i]) / 3.0;
    for (const TwoSteps& rank : ranks) {
      CHECK(at::equal(rank.averaged[1][i], ranks[0].averaged[1][i]));
      INFO("max abs diff " << test_util::max_abs_diff(rank.averaged[1][i], mean));
      CHECK(test_util::tensors_close(rank.averaged[1][i], mean, 1e-6, 1e-7));
    }
  }
  CHECK(ranks[0].log[1].pending_at_launch.front() > 0);
}

TEST_CASE("a bucket plan in a given order keeps the cap and the order", "[dist]") {
  const auto specs = mlp_param_specs(kMlp);
  const std::vector<std::size_t> order{5, 4, 3, 2, 1, 0};
  using Buckets = std::vector<std::vector<std::size_t>>;
  CHECK(parallel::plan_buckets_in_order(specs, order, kMlpThreeBuckets) == Buckets{{5, 4, 3}, {2, 1}, {0}});
  CHECK(parallel::plan_buckets_in_order(specs, order, 1) == Buckets{{5}, {4}, {3}, {2}, {1}, {0}});
  CHECK(parallel::plan_buckets_in_order(specs, order, parallel::kDefaultBucketBytes) == Buckets{{5, 4, 3, 2, 1, 0}});
  CHECK(parallel::plan_buckets_in_order(specs, {0, 2, 4}, parallel::kDefaultBucketBytes) == Buckets{{0, 2, 4}});
}
