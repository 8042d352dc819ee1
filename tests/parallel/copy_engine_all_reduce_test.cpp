// The copy-engine all-reduce ("grad_transport": "copy-engine", peer_exchange.h). On the CPU: a case
// asking for it fails naming why, on every rank alike. [cuda]: the exchange of two ranks sharing one
// GPU, driven from one thread in an order that cannot deadlock, sums exactly, eagerly and replayed;
// so does the exchange of two processes sharing one GPU (the CUDA IPC path: this test binary started
// twice by the launcher); two ranks as threads, one GPU each (skipped with fewer), average exactly
// through the op, eagerly and captured in a CUDA graph and replayed, as NCCL's averaging all-reduce
// does through the same op (the one path where NCCL divides, not graphbench). (On two GPUs the overlapped
// step with it trains bit for bit as with NCCL: overlapped_all_reduce_cuda_test.cpp.)
#include "parallel/parallel_test_util.h"
#include "support/cuda_skip.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/communication/peer_exchange.h"
#include "graphbench/parallel/communication/rank_env.h"
#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"

#include <torch/cuda.h>
#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif
#include <sstream>

using namespace graphbench;
using namespace graphbench::dist_test;

namespace {

parallel::GradientAverageOptions average_options(std::size_t bucket_bytes, bool bfloat16,
                                                 parallel::GradientTransport transport) {
  parallel::GradientAverageOptions options;
  options.bucket_bytes = bucket_bytes;
  options.bfloat16 = bfloat16;
  options.transport = transport;
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
Averages average_steps(ExecutorKind kind, bool bfloat16, parallel::GradientTransport transport, int steps,
                       const std::shared_ptr<parallel::Communicator>& comm, int rank) {
  const at::Device gpu = comm->device();
  Builder b("copy_engine_average");
  std::vector<ValueId> grads;
  for (std::size_t i = 0; i < kShapes.size(); ++i) {
    grads.push_back(b.input(fmt::format("g{}", i), test_util::fspec(kShapes[i], gpu)));
  }
  const auto averaged = parallel::average_gradients(b, grads, comm, average_options(1200, bfloat16, transport));
  for (std::size_t i = 0; i < averaged.size(); ++i) b.output(fmt::format("mean{}", i), averaged[i]);
  const auto program = b.build();
  ModelStore store;
  Engine engine(store);
  auto executor = make_executor(kind, engine, Policy::train(), ExecutorOptions{2, /*fallback=*/false, {}});
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
std::vector<Averages> average_on_two_gpus(ExecutorKind kind, bool bfloat16, parallel::GradientTransport transport,
                                          int steps) {
  return run_world<Averages>(2, [&](const parallel::RankEnv& env) {
    const at::Device gpu(at::kCUDA, static_cast<c10::DeviceIndex>(env.rank));
    auto comm = parallel::Communicator::connect(env, gpu, 60s);
    Averages out = average_steps(kind, bfloat16, transport, steps, comm, env.rank);  // closes its exchange, with the other rank
    comm->shutdown();
    return out;
  });
}

// The average of the two ranks' gradient, as the copy-engine average and NCCL's average compute it
// (for two ranks, halving each value is exact: NCCL's scaling before the sum and graphbench's
// division after it agree bit for bit).
at::Tensor expected_average(int step, std::size_t i, bool bfloat16) {
  const at::Tensor a = rank_gradient(0, step, i);
  const at::Tensor b = rank_gradient(1, step, i);
  if (!bfloat16) return (a + b) / 2.0;
  return (a.to(at::kBFloat16) / 2.0 + b.to(at::kBFloat16) / 2.0).to(at::kFloat);
}

#ifdef GRAPHBENCH_WITH_CUDA
// The exchange tests' data: rank r's bucket of step `step`, kExchangeN values of `dtype`.
constexpr std::int64_t kExchangeN = 1000;

at::Tensor exchange_values(int step, int rank, at::ScalarType dtype) {
  auto gen = at::detail::createCPUGenerator(500 + 10 * static_cast<std::uint64_t>(step) + rank);
  return at::randn({kExchangeN}, gen).to(dtype);
}

// What PeerExchange::sum makes of two ranks' buckets of `step`: float32 averaged (scale 0.5),
// bfloat16 summed in bfloat16 and widened (scale 1).
at::Tensor exchange_expected(int step, at::ScalarType dtype) {
  const at::Tensor total = exchange_values(step, 0, dtype) + exchange_values(step, 1, dtype);
  return dtype == at::kFloat ? total * 0.5 : total.to(at::kFloat);
}

double exchange_scale(at::ScalarType dtype) { return dtype == at::kFloat ? 0.5 : 1.0; }

// One step of one rank's exchange of its one bucket, on the current stream.
void exchange_step(parallel::PeerExchange& exchange, const at::Tensor& data, at::Tensor& out) {
  exchange.begin_step();
  exchange.send(0, 0, data);
  exchange.sum(0, 0, data, out, exchange_scale(data.scalar_type()));
  exchange.end_step();
}
#endif

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

namespace {

GradientSyncSpec sync_spec(const std::string& transport, double chunk_mb, bool overlap = true) {
  GradientSyncSpec spec;
  spec.transport = transport;
  spec.chunk_mb = chunk_mb;
  spec.overlap = overlap;
  return spec;
}

// What each of two ranks resolves "grad_transport" to: auto with chunks, auto without, auto after
// backward, and copy-engine as given. The ranks are threads of one process here, so auto never
// takes the symmetric memory (it needs a process per rank; the CLI test "--nproc 2 on two GPUs,
// grad_transport auto takes the symmetric-memory all-reduce" covers processes).
std::vector<std::vector<std::string>> resolved_on_two_ranks(bool gpus) {
  return run_world<std::vector<std::string>>(2, [&](const parallel::RankEnv& env) {
    auto comm = gpus ? parallel::Communicator::connect(env, at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(env.rank)), 60s)
                     : connect_cpu(env);
    std::vector<std::string> seen = {parallel::resolve_transport(sync_spec("auto", 8), *comm),
                                     parallel::resolve_transport(sync_spec("auto", 0), *comm),
                                     parallel::resolve_transport(sync_spec("auto", 8, /*overlap=*/false), *comm),
                                     parallel::resolve_transport(sync_spec("copy-engine", 0), *comm)};
    comm->shutdown();
    return seen;
  });
}

}  // namespace

TEST_CASE("grad_transport auto: the collective on the CPU, and without chunks or overlap", "[dist][gloo]") {
  if (!parallel::backend_available(at::kCPU)) GRAPHBENCH_SKIP("this build has no Gloo backend");
  for (const auto& rank : resolved_on_two_ranks(/*gpus=*/false)) {
    CHECK(rank == std::vector<std::string>{"collective", "collective", "collective", "copy-engine"});
  }
}

TEST_CASE("grad_transport auto: the copy engines for two ranks on two GPUs with chunks", "[dist][cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!parallel::backend_available(at::kCUDA)) GRAPHBENCH_SKIP("this build has no NCCL backend");
  if (torch::cuda::device_count() < 2) GRAPHBENCH_SKIP("needs two GPUs");
#ifdef GRAPHBENCH_WITH_CUDA
  int can = 0;
  if (cudaDeviceCanAccessPeer(&can, 0, 1) != cudaSuccess || !can) GRAPHBENCH_SKIP("GPUs 0 and 1 do not reach each other");
#endif
  for (const auto& rank : resolved_on_two_ranks(/*gpus=*/true)) {
    CHECK(rank == std::vector<std::string>{"copy-engine", "collective", "collective", "copy-engine"});
  }
}

// The symmetric-memory transport is not among them: its ranks are threads of one process here, and
// LibTorch's symmetric memory takes a process per rank (cli: "--nproc 2 on two GPUs with the
// symmetric-memory all-reduce" runs it).
TEST_CASE("copy-engine and NCCL all-reduce: two ranks on two GPUs average exactly, eagerly and replayed",
          "[dist][cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!parallel::backend_available(at::kCUDA)) GRAPHBENCH_SKIP("this build has no NCCL backend");
  // One GPU each: two ranks on one GPU can deadlock (peer_exchange.h).
  if (torch::cuda::device_count() < 2) GRAPHBENCH_SKIP("needs two GPUs");
  const bool bfloat16 = GENERATE(false, true);
  const ExecutorKind kind = GENERATE(ExecutorKind::kEager, ExecutorKind::kGraph);
  const parallel::GradientTransport transport =
      GENERATE(parallel::GradientTransport::kCopyEngine, parallel::GradientTransport::kCollective);
  INFO((bfloat16 ? "bfloat16" : "float32") << (kind == ExecutorKind::kGraph ? ", graph" : ", eager")
                                           << (transport == parallel::GradientTransport::kCopyEngine ? ", copy engines" : ", NCCL"));
  constexpr int kSteps = 5;
  const auto ranks = average_on_two_gpus(kind, bfloat16, transport, kSteps);
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
  const at::ScalarType dtype = bfloat16 ? at::kBFloat16 : at::kFloat;
  std::vector<std::shared_ptr<parallel::Communicator>> comms(2);
  std::vector<std::unique_ptr<parallel::PeerExchange>> exchanges(2);
  run_world<int>(2, [&](const parallel::RankEnv& env) {  // opening is collective
    comms[env.rank] = parallel::Communicator::connect(env, gpu, 60s);
    exchanges[env.rank] = std::make_unique<parallel::PeerExchange>(comms[env.rank], kExchangeN * 4, 1);
    return 0;
  });
  std::vector<c10::cuda::CUDAStream> streams = {c10::cuda::getStreamFromPool(false, 0),
                                                 c10::cuda::getStreamFromPool(false, 0)};
  std::vector<at::Tensor> data, out;
  for (int r = 0; r < 2; ++r) {
    data.push_back(at::empty({kExchangeN}, at::TensorOptions().dtype(dtype).device(gpu)));
    out.push_back(at::empty({kExchangeN}, at::TensorOptions().dtype(at::kFloat).device(gpu)));
  }
  const double scale = exchange_scale(dtype);
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
  const auto feed = [&](int step_index) {
    for (int r = 0; r < 2; ++r) data[r].copy_(exchange_values(step_index, r, dtype).to(gpu));
    torch::cuda::synchronize();
  };
  // Eagerly, three steps.
  for (int i = 0; i < 3; ++i) {
    feed(i);
    step();
    torch::cuda::synchronize();
    for (int r = 0; r < 2; ++r) {
      INFO("eager step " << i << ", rank " << r);
      CHECK(at::equal(out[r].cpu(), exchange_expected(i, dtype)));
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
    feed(i);
    graph.replay();
    torch::cuda::synchronize();
    for (int r = 0; r < 2; ++r) {
      INFO("replay " << i << ", rank " << r);
      CHECK(at::equal(out[r].cpu(), exchange_expected(i, dtype)));
    }
  }
  run_world<int>(2, [&](const parallel::RankEnv& env) {  // closing is collective too
    exchanges[env.rank].reset();
    comms[env.rank]->shutdown();
    return 0;
  });
#endif
}

// The ranks of the test below: this binary, started by the launcher with the torchrun variables.
// Hidden (run only by name); both ranks on GPU 0, each in a process of its own, so every peer block
// is reached through CUDA IPC. Processes sharing a GPU take turns on it (time slices), so a rank's
// wait never holds up the other's copy for good, as it can between ranks of one process.
TEST_CASE("process rank: the copy-engine exchange on GPU 0", "[.copy-engine-process-rank]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const std::optional<parallel::RankEnv> env = parallel::read_rank_env();
  if (!env) GRAPHBENCH_SKIP("a rank of the two-process copy-engine test, which starts it with RANK and WORLD_SIZE");
#ifdef GRAPHBENCH_WITH_CUDA
  const at::Device gpu(at::kCUDA, 0);
  const c10::cuda::CUDAGuard on_gpu(gpu);
  auto comm = parallel::Communicator::connect(*env, gpu, 60s);
  for (const at::ScalarType dtype : {at::kFloat, at::kBFloat16}) {
    INFO("rank " << env->rank << ", " << c10::toString(dtype));
    auto exchange = std::make_unique<parallel::PeerExchange>(comm, kExchangeN * 4, 1);
    const c10::cuda::CUDAStream stream = c10::cuda::getStreamFromPool(false, 0);
    at::Tensor data = at::empty({kExchangeN}, at::TensorOptions().dtype(dtype).device(gpu));
    at::Tensor out = at::empty({kExchangeN}, at::TensorOptions().dtype(at::kFloat).device(gpu));
    const auto feed = [&](int step_index) {
      data.copy_(exchange_values(step_index, env->rank, dtype).to(gpu));
      torch::cuda::synchronize();
    };
    for (int i = 0; i < 3; ++i) {
      feed(i);
      {
        const c10::cuda::CUDAStreamGuard on(stream);
        exchange_step(*exchange, data, out);
      }
      torch::cuda::synchronize();
      INFO("eager step " << i);
      CHECK(at::equal(out.cpu(), exchange_expected(i, dtype)));
    }
    at::cuda::CUDAGraph graph;
    {
      const c10::cuda::CUDAStreamGuard on(stream);
      graph.capture_begin();
      exchange_step(*exchange, data, out);
      graph.capture_end();
    }
    for (int i = 3; i < 6; ++i) {
      feed(i);
      graph.replay();
      torch::cuda::synchronize();
      INFO("replay " << i);
      CHECK(at::equal(out.cpu(), exchange_expected(i, dtype)));
    }
    exchange.reset();  // collective: both ranks
  }
  comm->shutdown();
#endif
}

TEST_CASE("copy-engine exchange: two processes sharing one GPU (CUDA IPC) sum exactly, eagerly and replayed",
          "[dist][cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!parallel::backend_available(at::kCUDA)) GRAPHBENCH_SKIP("this build has no NCCL backend");
  parallel::LaunchOptions options;
  options.nproc = 2;
  options.executable = "/proc/self/exe";  // this test binary, as `--nproc` starts graphbench
  options.arguments = {"[copy-engine-process-rank]"};
  options.cuda = true;
  std::ostringstream log;
  const int code = parallel::launch_ranks(options, log);
  INFO("launcher: " << log.str() << "(each rank's own report is above)");
  CHECK(code == 0);
}
