// The data-parallel training step on two CPU ranks over Gloo: the gradient all-reduce op between
// backward and SGD, in one program, run by the eager and the static executors. Each rank trains
// on its shard of every global batch; the result must be the single-process training on the
// whole global batches.
#include "parallel/parallel_test_util.h"

using namespace graphbench;
using namespace graphbench::dist_test;
using test_util::Batch;
using test_util::Regression;

namespace {

constexpr int kWorld = 2;

Regression global_problem() {
  Regression r;
  r.batch = 16;
  r.in = 6;
  r.out = 3;
  return r;
}

Regression local_problem() {
  Regression r = global_problem();
  r.batch /= kWorld;
  return r;
}

struct RankRun {
  std::vector<at::Tensor> first_grads;  // averaged gradients of step 1
  std::vector<at::Tensor> params;       // after the last step
  parallel::Agreement agreement;
  std::int64_t all_reduce_ops = 0;
};

// Every rank: rank 0's initial params, then one step per global batch on this rank's shard.
RankRun train_rank(const parallel::RankEnv& env, ExecutorKind kind, const ModelStore& initial,
                   const std::vector<Batch>& global_batches, std::size_t bucket_bytes, bool overlap = false) {
  auto comm = connect_cpu(env);
  ModelStore store = initial.clone();
  // Start the replicas apart on purpose: the broadcast must make them equal.
  if (env.rank != 0) store.at(test_util::kWeight).add_(1.0);
  parallel::broadcast_store(*comm, store);
  auto program = data_parallel_step(local_problem(), comm, StepSync{{bucket_bytes, false}, overlap, nullptr});
  Engine engine(store);
  auto executor = make_executor(kind, engine, Policy::train());
  RankRun run;
  for (std::size_t step = 0; step < global_batches.size(); ++step) {
    auto outputs = executor->run(program, test_util::feed_of(shard(global_batches[step], env.rank, kWorld)));
    if (step == 0) run.first_grads = {outputs.at(1).clone(), outputs.at(2).clone()};
  }
  run.params = {store.at(test_util::kWeight).detach().clone(), store.at(test_util::kBias).detach().clone()};
  run.agreement = parallel::agree_across_ranks(*comm, parallel::fingerprint(run.params));
  for (const auto& node : program->ops()) {
    const std::string signature = node.op->signature();
    if (signature.rfind("all_reduce_mean", 0) == 0 || signature.rfind("backward+all_reduce_mean", 0) == 0) {
      ++run.all_reduce_ops;
    }
  }
  return run;
}

// The same steps in one process on the whole global batches.
RankRun train_single(const ModelStore& initial, const std::vector<Batch>& global_batches) {
  ModelStore store = initial.clone();
  auto program = data_parallel_step(global_problem(), nullptr);
  Engine engine(store);
  auto executor = make_executor(ExecutorKind::kEager, engine, Policy::train());
  RankRun run;
  for (std::size_t step = 0; step < global_batches.size(); ++step) {
    auto outputs = executor->run(program, test_util::feed_of(global_batches[step]));
    if (step == 0) run.first_grads = {outputs.at(1).clone(), outputs.at(2).clone()};
  }
  run.params = {store.at(test_util::kWeight).detach().clone(), store.at(test_util::kBias).detach().clone()};
  return run;
}

}  // namespace

TEST_CASE("averaged gradients of the shards equal the gradient of the global batch", "[dist][gloo]") {
  ModelStore initial;
  test_util::init_params(initial, global_problem());
  const auto batches = test_util::make_batches(global_problem(), 1);
  const RankRun single = train_single(initial, batches);
  auto ranks = run_world<RankRun>(kWorld, [&](const parallel::RankEnv& env) {
    return train_rank(env, ExecutorKind::kEager, initial, batches, parallel::kDefaultBucketBytes);
  });
  for (const RankRun& r : ranks) {
    CHECK(r.all_reduce_ops == 1);
    for (std::size_t i = 0; i < 2; ++i) {
      INFO("gradient " << i << ", max abs diff " << test_util::max_abs_diff(r.first_grads[i], single.first_grads[i]));
      CHECK(test_util::tensors_close(r.first_grads[i], single.first_grads[i], 1e-5, 1e-6));
    }
  }
  // Not the shard's own gradient: the shards differ, their gradients too.
  ModelStore alone = initial.clone();
  auto local = data_parallel_step(local_problem(), nullptr);
  Engine engine(alone);
  auto executor = make_executor(ExecutorKind::kEager, engine, Policy::train());
  auto own = executor->run(local, test_util::feed_of(shard(batches[0], 0, kWorld)));
  CHECK_FALSE(test_util::tensors_close(own.at(1), single.first_grads[0], 1e-3, 1e-4));
}

TEST_CASE("after K data-parallel steps the params are bit-identical on every rank and match one process",
          "[dist][gloo]") {
  const ExecutorKind kind = GENERATE(ExecutorKind::kEager, ExecutorKind::kStatic);
  // One bucket for all gradients, or one per gradient.
  const std::size_t bucket_bytes = GENERATE(parallel::kDefaultBucketBytes, std::size_t{16});
  // After backward, or overlapped with it.
  const bool overlap = GENERATE(false, true);
  INFO("executor " << to_string(kind) << ", bucket cap " << bucket_bytes << " bytes, overlap " << overlap);
  ModelStore initial;
  test_util::init_params(initial, global_problem());
  const auto batches = test_util::make_batches(global_problem(), 6);
  const RankRun single = train_single(initial, batches);
  auto ranks = run_world<RankRun>(kWorld, [&](const parallel::RankEnv& env) {
    return train_rank(env, kind, initial, batches, bucket_bytes, overlap);
  });
  for (int r = 0; r < kWorld; ++r) {
    const RankRun& run = ranks[static_cast<std::size_t>(r)];
    INFO("rank " << r);
    CHECK(run.all_reduce_ops == 1);
    CHECK(run.agreement.same);
    CHECK(at::equal(run.params[0], ranks[0].params[0]));
    CHECK(at::equal(run.params[1], ranks[0].params[1]));
    for (std::size_t i = 0; i < 2; ++i) {
      INFO("param " << i << ", max abs diff " << test_util::max_abs_diff(run.params[i], single.params[i]));
      CHECK(test_util::tensors_close(run.params[i], single.params[i], 1e-5, 1e-6));
    }
  }
  // The params moved: the check above compares trained params, not the initial ones.
  CHECK_FALSE(test_util::tensors_close(single.params[0], initial.at(test_util::kWeight), 1e-3, 1e-3));
}
