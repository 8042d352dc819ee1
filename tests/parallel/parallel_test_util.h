// Helpers of the distributed tests: a world of ranks as threads of the test process (c10d's
// TCPStore and ProcessGroupGloo allow several ranks per process), the regression step of the
// engine tests with the gradient all-reduce in it, and seeded data split into shards.
//
// Catch2's assertions are not thread-safe: rank threads return what they saw and the test checks
// it on the main thread.
#pragma once

#include "engine/engine_test_util.h"
#include "graphbench/parallel/gradient_sync/all_reduce_alone.h"
#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"
#include "graphbench/parallel/cases/launcher.h"
#include "graphbench/parallel/gradient_sync/overlapped_backward.h"
#include "graphbench/parallel/cases/replicas.h"

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

// A three-layer perceptron for the bucketing tests: x -> fc1, relu -> fc2, relu -> fc3 -> MSE; its
// params in layer order (fc1.weight, fc1.bias, ..., fc3.bias), so backward produces their gradients
// in the opposite order, layer by layer. SGD (no momentum) after the gradients; outputs "loss" and
// the (averaged) gradients, in param order.
struct Mlp {
  std::int64_t batch = 8;
  std::int64_t in = 6;
  std::int64_t hidden = 8;
  std::int64_t out = 3;
  at::Device device = at::kCPU;
};

// The default perceptron.
inline const Mlp kMlp;

// A step's averaged gradients (every output after the loss), copied out of the step's buffers.
inline std::vector<at::Tensor> gradients_after_loss(const std::vector<at::Tensor>& outputs) {
  std::vector<at::Tensor> out;
  for (std::size_t i = 1; i < outputs.size(); ++i) out.push_back(outputs[i].detach().clone());
  return out;
}

// A bucket cap that splits the default perceptron's gradients into three buckets in backward's
// order: {fc3.bias 12 B, fc3.weight 96 B, fc2.bias 32 B}, {fc2.weight 256 B, fc1.bias 32 B},
// {fc1.weight 192 B}.
constexpr std::size_t kMlpThreeBuckets = 300;

inline const std::vector<std::string>& mlp_param_names() {
  static const std::vector<std::string> names = {"fc1.weight", "fc1.bias", "fc2.weight",
                                                 "fc2.bias",   "fc3.weight", "fc3.bias"};
  return names;
}

inline std::vector<TensorSpec> mlp_param_specs(const Mlp& m) {
  using test_util::fspec;
  return {fspec({m.hidden, m.in}, m.device),  fspec({m.hidden}, m.device), fspec({m.hidden, m.hidden}, m.device),
          fspec({m.hidden}, m.device),        fspec({m.out, m.hidden}, m.device), fspec({m.out}, m.device)};
}

// The perceptron's externals: inputs "x" and "target", then its params in order.
struct MlpExternals {
  ValueId x = -1;
  ValueId target = -1;
  std::vector<ValueId> params;
};

inline MlpExternals declare_mlp(Builder& b, const Mlp& m) {
  using test_util::fspec;
  MlpExternals e;
  e.x = b.input("x", fspec({m.batch, m.in}, m.device));
  e.target = b.input("target", fspec({m.batch, m.out}, m.device));
  const auto specs = mlp_param_specs(m);
  for (std::size_t i = 0; i < specs.size(); ++i) e.params.push_back(b.param(mlp_param_names()[i], specs[i]));
  return e;
}

// The step's end: SGD (`momentum`) on the params, then the outputs "loss" and the gradients.
inline std::shared_ptr<const Program> finish_mlp_step(Builder& b, ValueId loss, const std::vector<ValueId>& params,
                                                      const std::vector<ValueId>& grads, double momentum) {
  ops::sgd_step(b, params, grads, ops::SgdOptions{0.1, momentum, 0.0});
  b.output("loss", loss);
  for (std::size_t i = 0; i < grads.size(); ++i) b.output("grad." + mlp_param_names()[i], grads[i]);
  return b.build();
}

inline std::shared_ptr<const Program> mlp_step(const Mlp& m, const std::shared_ptr<parallel::Communicator>& communicator,
                                               const StepSync& sync = {}) {
  Builder b("mlp_data_parallel");
  const MlpExternals e = declare_mlp(b, m);
  const std::vector<ValueId>& params = e.params;
  ValueId h = ops::relu(b, ops::linear(b, e.x, params[0], params[1]));
  h = ops::relu(b, ops::linear(b, h, params[2], params[3]));
  ValueId loss = ops::mse_loss(b, ops::linear(b, h, params[4], params[5]), e.target);
  return finish_mlp_step(b, loss, params, synced_gradients(b, loss, params, communicator, sync), /*momentum=*/0.0);
}

// Seeded initial params of the perceptron (CPU random numbers, then moved).
inline ModelStore mlp_params(const Mlp& m, std::uint64_t seed = 5) {
  auto gen = at::detail::createCPUGenerator(seed);
  ModelStore store;
  const auto specs = mlp_param_specs(m);
  for (std::size_t i = 0; i < specs.size(); ++i) {
    store.set(mlp_param_names()[i], (at::randn(specs[i].shape, gen) * 0.4).to(m.device));
  }
  return store;
}

// A seeded batch of the perceptron's sizes, `rows` rows.
inline test_util::Batch mlp_batch(const Mlp& m, std::int64_t rows, std::uint64_t seed) {
  auto gen = at::detail::createCPUGenerator(seed);
  return test_util::Batch{at::randn({rows, m.in}, gen).to(m.device), at::randn({rows, m.out}, gen).to(m.device)};
}

// Rank `rank`'s shard of a global batch.
inline test_util::Batch shard(const test_util::Batch& global, int rank, int world) {
  return test_util::Batch{parallel::shard_rows(global.x, rank, world).contiguous(),
                          parallel::shard_rows(global.target, rank, world).contiguous()};
}

}  // namespace graphbench::dist_test
