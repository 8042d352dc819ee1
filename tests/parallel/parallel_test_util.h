// Helpers of the distributed tests: a world of ranks as threads of the test process (c10d's
// TCPStore and ProcessGroupGloo allow several ranks per process), the regression step of the
// engine tests with the gradient all-reduce in it, and seeded data split into shards.
//
// Catch2's assertions are not thread-safe: rank threads return what they saw and the test checks
// it on the main thread.
#pragma once

#include "engine/engine_test_util.h"
#include "graphbench/parallel/all_reduce_alone.h"
#include "graphbench/parallel/communicator.h"
#include "graphbench/parallel/gradient_all_reduce.h"
#include "graphbench/parallel/launcher.h"
#include "graphbench/parallel/overlapped_backward.h"
#include "graphbench/parallel/replicas.h"

#include <chrono>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace graphbench::dist_test {

using namespace std::chrono_literals;

inline parallel::RankEnv rank_env(int rank, int world, int port) {
  parallel::RankEnv env;
  env.rank = rank;
  env.world_size = world;
  env.local_rank = rank;
  env.local_world_size = world;
  env.master_addr = "127.0.0.1";
  env.master_port = port;
  return env;
}

// Runs fn(env) on `world` threads, one per rank; returns each rank's result; rethrows the first
// exception a rank threw (after every thread ended).
template <typename Result>
std::vector<Result> run_world(int world, const std::function<Result(const parallel::RankEnv&)>& fn) {
  const int port = parallel::find_free_port("127.0.0.1");
  std::vector<Result> results(static_cast<std::size_t>(world));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(world));
  std::vector<std::thread> threads;
  for (int r = 0; r < world; ++r) {
    threads.emplace_back([&, r] {
      try {
        results[static_cast<std::size_t>(r)] = fn(rank_env(r, world, port));
      } catch (...) {
        errors[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  return results;
}

inline std::shared_ptr<parallel::Communicator> connect_cpu(const parallel::RankEnv& env, std::chrono::milliseconds timeout = 20s) {
  return parallel::Communicator::connect(env, at::kCPU, timeout);
}

// How a test step averages its gradients: after the backward pass (average_gradients) or
// overlapped with it (backward_and_average).
struct StepSync {
  parallel::GradientAverageOptions options;
  bool overlap = false;
  std::shared_ptr<GradientBucketLog> log;
};

// The gradients of `loss` as `sync` says; one process's without a communicator.
inline std::vector<ValueId> synced_gradients(Builder& b, ValueId loss, const std::vector<ValueId>& params,
                                             const std::shared_ptr<parallel::Communicator>& communicator,
                                             const StepSync& sync) {
  if (communicator && sync.overlap) {
    return parallel::backward_and_average(b, loss, params, communicator, sync.options, sync.log);
  }
  std::vector<ValueId> grads = ops::backward(b, loss, params);
  if (communicator) grads = parallel::average_gradients(b, grads, communicator, sync.options, {}, sync.log);
  return grads;
}

// The engine tests' regression step, with the gradients averaged over `communicator`'s ranks
// between backward and SGD (momentum 0.5). Outputs "loss", then the averaged gradients.
inline std::shared_ptr<const Program> data_parallel_step(const test_util::Regression& r,
                                                         std::shared_ptr<parallel::Communicator> communicator,
                                                         const StepSync& sync = {}) {
  using namespace test_util;
  Builder b("regression_data_parallel");
  ValueId x = b.input("x", fspec({r.batch, r.in}, r.device));
  ValueId target = b.input("target", fspec({r.batch, r.out}, r.device));
  ValueId w = b.param(kWeight, fspec({r.out, r.in}, r.device));
  ValueId bias = b.param(kBias, fspec({r.out}, r.device));
  ValueId loss = ops::mse_loss(b, ops::linear(b, x, w, bias), target);
  std::vector<ValueId> params{w, bias};
  const std::vector<ValueId> grads = synced_gradients(b, loss, params, communicator, sync);
  ops::sgd_step(b, params, grads, ops::SgdOptions{0.1, 0.5, 0.0});
  b.output("loss", loss);
  b.output("grad.weight", grads[0]);
  b.output("grad.bias", grads[1]);
  return b.build();
}

// Rank `rank`'s shard of a global batch.
inline test_util::Batch shard(const test_util::Batch& global, int rank, int world) {
  return test_util::Batch{parallel::shard_rows(global.x, rank, world).contiguous(),
                          parallel::shard_rows(global.target, rank, world).contiguous()};
}

}  // namespace graphbench::dist_test
