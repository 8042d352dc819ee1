// The copy-engine all-reduce ("grad_transport": "copy-engine", peer_exchange.h). On the CPU: a case
// asking for it fails naming why, on every rank alike. [cuda]: the exchange of two ranks sharing one
// GPU, driven from one thread in an order that cannot deadlock, sums exactly, eagerly and replayed;
// two ranks as threads, one GPU each (skipped with fewer), average exactly through the op, eagerly
// and captured in a CUDA graph and replayed. (On two GPUs the overlapped
// step with it trains bit for bit as with NCCL: overlapped_all_reduce_cuda_test.cpp.)
#include "parallel/parallel_test_util.h"
#include "support/cuda_skip.h"

#include "graphbench/core/errors.h"
#include "graphbench/parallel/peer_exchange.h"

#include <torch/cuda.h>
#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

using namespace graphbench;
using namespace graphbench::dist_test;

namespace {

parallel::GradientAverageOptions copy_engine_options(std::size_t bucket_bytes, bool bfloat16) {
  parallel::GradientAverageOptions options;
  options.bucket_bytes = bucket_bytes;
  options.bfloat16 = bfloat16;
  options.transport = parallel::GradientTransport::kCopyEngine;
  return options;
}

// Gradient shapes: three buckets of 1200 bytes at most (the last two gradients share one).
const std::vector<std::vector<std::int64_t>> kShapes = {{7, 30}, {257}, {3, 5}, {40}};

at::Tensor rank_gradient(int rank, int step, std::size_t i) {
  auto gen = at::detail::createCPUGenerator(1000 * static_cast<std::uint64_t>(step) +
                                            10 * static_cast<std::uint64_t>(rank) + i);
  return at::randn(kShapes[i], gen);
}

struct Averages {
  std::vector<std::vector<at::Tensor>> by_step;  // on the CPU
  Counters counters;
};

// One rank's steps on its GPU: the averages of its gradients with the other rank's.
Averages average_steps(ExecutorKind kind, bool bfloat16, int steps,
                       const std::shared_ptr<parallel::Communicator>& comm, int rank) {
  const at::Device gpu = comm->device();
  Builder b("copy_engine_average");
  std::vector<ValueId> grads;
  for (std::size_t i = 0; i < kShapes.size(); ++i) {
    grads.push_back(b.input(fmt::format("g{}", i), test_util::fspec(kShapes[i], gpu)));
  }
  const auto averaged = parallel::average_gradients(b, grads, comm, copy_engine_options(1200, bfloat16));
  for (std::size_t i = 0; i < averaged.size(); ++i) b.output(fmt::format("mean{}", i), averaged[i]);
  const auto program = b.build();
  ModelStore store;
  Engine engine(store);
  auto executor = make_executor(kind, engine, Policy::train(), ExecutorOptions{2, /*fallback=*/false});
  Averages out;
  for (int step = 0; step < steps; ++step) {
    Feed feed;
    for (std::size_t i = 0; i < kShapes.size(); ++i) feed[fmt::format("g{}", i)] = rank_gradient(rank, step, i).to(gpu);
    comm->all_gather_strings("");  // no rank's blocking copy while the other captures (gpu_training_util.h)
    auto outputs = executor->run(program, feed);
    comm->all_gather_strings("");
    std::vector<at::Tensor> on_cpu;
    for (const at::Tensor& t : outputs) on_cpu.push_back(t.cpu());
    out.by_step.push_back(std::move(on_cpu));
  }
  out.counters = engine.counters();
  return out;
}

// Two ranks, GPU r for rank r, each averaging its gradients of every step through the copy engines.
std::vector<Averages> average_on_two_gpus(ExecutorKind kind, bool bfloat16, int steps) {
  return run_world<Averages>(2, [&](const parallel::RankEnv& env) {
    const at::Device gpu(at::kCUDA, static_cast<c10::DeviceIndex>(env.rank));
    auto comm = parallel::Communicator::connect(env, gpu, 60s);
    Averages out = average_steps(kind, bfloat16, steps, comm, env.rank);  // closes its exchange, with the other rank
    comm->shutdown();
    return out;
  });
}

// The average of the two ranks' gradient, as the copy-engine average computes it.
at::Tensor expected_average(int step, std::size_t i, bool bfloat16) {
  const at::Tensor a = rank_gradient(0, step, i);
  const at::Tensor b = rank_gradient(1, step, i);
  if (!bfloat16) return (a + b) / 2.0;
  return (a.to(at::kBFloat16) / 2.0 + b.to(at::kBFloat16) / 2.0).to(at::kFloat);
}

}  // namespace

TEST_CASE("copy-engine all-reduce: on the CPU the case fails naming why", "[dist][gloo]") {
  CHECK(parallel::peer_exchange_unavailable(at::kCPU).find("CPU") != std::string::npos);
  if (!parallel::backend_available(at::kCPU)) GRAPHBENCH_SKIP("this build has no Gloo backend");
  const auto errors = run_world<std::string>(2, [](const parallel::RankEnv& env) {
    auto comm = connect_cpu(env);
    try {
      parallel::PeerExchange exchange(comm, 1024, 1);
    } catch (const DistributedError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  });
  for (const std::string& e : errors) {
    INFO(e);
    CHECK(e.find("copy-engine all-reduce") != std::string::npos);
    CHECK(e.find("on the CPU") != std::string::npos);
  }
}

TEST_CASE("copy-engine all-reduce: two ranks on two GPUs average exactly, eagerly and replayed", "[dist][cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!parallel::backend_available(at::kCUDA)) GRAPHBENCH_SKIP("this build has no NCCL backend");
  // One GPU each: two ranks on one GPU can deadlock (peer_exchange.h).
  if (torch::cuda::device_count() < 2) GRAPHBENCH_SKIP("needs two GPUs");
  const bool bfloat16 = GENERATE(false, true);
  const ExecutorKind kind = GENERATE(ExecutorKind::kEager, ExecutorKind::kGraph);
  INFO((bfloat16 ? "bfloat16" : "float32") << (kind == ExecutorKind::kGraph ? ", graph" : ", eager"));
  constexpr int kSteps = 5;
  const auto ranks = average_on_two_gpus(kind, bfloat16, kSteps);
  if (kind == ExecutorKind::kGraph) {
    for (const Averages& rank : ranks) {
      CHECK(rank.counters.captures == 1);
      CHECK(rank.counters.capture_failures == 0);
      CHECK(rank.counters.replays == kSteps);
    }
  }
  for (int step = 0; step < kSteps; ++step) {
    for (std::size_t i = 0; i < kShapes.size(); ++i) {
      INFO("step " << step << ", gradient " << i);
      const at::Tensor expected = expected_average(step, i, bfloat16);
      for (const Averages& rank : ranks) {
        INFO("max abs diff " << test_util::max_abs_diff(rank.by_step[step][i], expected));
        CHECK(at::equal(rank.by_step[step][i], expected));
      }
    }
  }
}

TEST_CASE("copy-engine exchange: two ranks sharing one GPU, driven in a safe order, sum exactly, eagerly and replayed",
          "[dist][cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!parallel::backend_available(at::kCUDA)) GRAPHBENCH_SKIP("this build has no NCCL backend");
#ifdef GRAPHBENCH_WITH_CUDA
  // Two ranks on one GPU can deadlock when their threads interleave (peer_exchange.h): here one
  // thread issues both ranks' sends before either rank's sum, so that every wait is queued after
  // the copy and flag that end it.
  const bool bfloat16 = GENERATE(false, true);
  INFO((bfloat16 ? "bfloat16" : "float32"));
  const at::Device gpu(at::kCUDA, 0);
  constexpr std::int64_t kN = 1000;
  const at::ScalarType dtype = bfloat16 ? at::kBFloat16 : at::kFloat;
  std::vector<std::shared_ptr<parallel::Communicator>> comms(2);
  std::vector<std::unique_ptr<parallel::PeerExchange>> exchanges(2);
  run_world<int>(2, [&](const parallel::RankEnv& env) {  // opening is collective
    comms[env.rank] = parallel::Communicator::connect(env, gpu, 60s);
    exchanges[env.rank] = std::make_unique<parallel::PeerExchange>(comms[env.rank], kN * 4, 1);
    return 0;
  });
  std::vector<c10::cuda::CUDAStream> streams = {c10::cuda::getStreamFromPool(false, 0),
                                                 c10::cuda::getStreamFromPool(false, 0)};
  std::vector<at::Tensor> data, out;
  for (int r = 0; r < 2; ++r) {
    data.push_back(at::empty({kN}, at::TensorOptions().dtype(dtype).device(gpu)));
    out.push_back(at::empty({kN}, at::TensorOptions().dtype(at::kFloat).device(gpu)));
  }
  const double scale = bfloat16 ? 1.0 : 0.5;
  const auto step = [&] {
    for (int r = 0; r < 2; ++r) {
      const c10::cuda::CUDAStreamGuard on(streams[r]);
      exchanges[r]->begin_step();
      exchanges[r]->send(0, 0, data[r]);
    }
    for (int r = 0; r < 2; ++r) {
      const c10::cuda::CUDAStreamGuard on(streams[r]);
      exchanges[r]->sum(0, 0, data[r], out[r], scale);
      exchanges[r]->end_step();
    }
  };
  const auto expected = [&](const std::vector<at::Tensor>& v) {
    if (!bfloat16) return ((v[0] + v[1]) * 0.5).to(at::kFloat);
    return (v[0] + v[1]).to(at::kFloat);  // the bfloat16 sum, widened
  };
  const auto values_of = [&](int step_index) {
    std::vector<at::Tensor> v;
    for (int r = 0; r < 2; ++r) {
      auto gen = at::detail::createCPUGenerator(500 + 10 * static_cast<std::uint64_t>(step_index) + r);
      v.push_back(at::randn({kN}, gen).to(dtype));
    }
    return v;
  };
  // Eagerly, three steps.
  for (int i = 0; i < 3; ++i) {
    const auto v = values_of(i);
    for (int r = 0; r < 2; ++r) data[r].copy_(v[r].to(gpu));
    torch::cuda::synchronize();
    step();
    torch::cuda::synchronize();
    for (int r = 0; r < 2; ++r) {
      INFO("eager step " << i << ", rank " << r);
      CHECK(at::equal(out[r].cpu(), expected(v)));
    }
  }
  // Captured once, replayed three times on new data.
  at::cuda::CUDAGraph graph;
  const c10::cuda::CUDAStream capture = c10::cuda::getStreamFromPool(false, 0);
  {
    const c10::cuda::CUDAStreamGuard on(capture);
    graph.capture_begin();
    for (int r = 0; r < 2; ++r) {
      at::cuda::CUDAEvent fork;
      fork.record(capture);
      fork.block(streams[r]);
    }
    step();
    for (int r = 0; r < 2; ++r) {
      at::cuda::CUDAEvent join;
      join.record(streams[r]);
      join.block(capture);
    }
    graph.capture_end();
  }
  for (int i = 3; i < 6; ++i) {
    const auto v = values_of(i);
    for (int r = 0; r < 2; ++r) data[r].copy_(v[r].to(gpu));
    torch::cuda::synchronize();
    graph.replay();
    torch::cuda::synchronize();
    for (int r = 0; r < 2; ++r) {
      INFO("replay " << i << ", rank " << r);
      CHECK(at::equal(out[r].cpu(), expected(v)));
    }
  }
  run_world<int>(2, [&](const parallel::RankEnv& env) {  // closing is collective too
    exchanges[env.rank].reset();
    comms[env.rank]->shutdown();
    return 0;
  });
#endif
}
