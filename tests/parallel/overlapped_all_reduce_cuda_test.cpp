// [cuda] The gradient all-reduce overlapped with the backward pass, captured in a CUDA graph with
// ProcessGroupNCCL: the side stream forked from the capture stream and joined back, the buckets'
// collectives inside the graph. In a world of one rank (one GPU is enough) and of two ranks as
// threads of this process, one GPU each (skipped with fewer than two GPUs).
#include "parallel/gpu_training_util.h"
#include "support/cuda_skip.h"

#include <torch/cuda.h>

using namespace graphbench;
using namespace graphbench::dist_test;

namespace {

GpuRun train_mlp(ExecutorKind kind, const std::shared_ptr<parallel::Communicator>& comm, const Mlp& m,
                 const StepSync& sync) {
  return train_on_gpu(kind, comm, m, mlp_step(m, comm, sync), sync.log);
}

StepSync overlapped(bool bfloat16 = false,
                    parallel::GradientTransport transport = parallel::GradientTransport::kCollective) {
  parallel::GradientAverageOptions options;
  options.bucket_bytes = kMlpThreeBuckets;
  options.bfloat16 = bfloat16;
  options.transport = transport;
  return StepSync{options, /*overlap=*/true, std::make_shared<GradientBucketLog>()};
}

Mlp mlp_on(int device) {
  Mlp m;
  m.device = at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(device));
  return m;
}

}  // namespace

TEST_CASE("the overlapped all-reduce is captured with the backward pass and replays like eager (one GPU)",
          "[dist][cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!parallel::backend_available(at::kCUDA)) GRAPHBENCH_SKIP("this build has no NCCL backend");
  const bool bfloat16 = GENERATE(false, true);
  INFO((bfloat16 ? "bfloat16 gradients" : "float32 gradients"));
  auto comm = parallel::Communicator::connect(rank_env(0, 1, parallel::find_free_port("127.0.0.1")),
                                              at::Device(at::kCUDA, 0), 60s);
  const Mlp m = mlp_on(0);
  const GpuRun eager = train_mlp(ExecutorKind::kEager, comm, m, overlapped(bfloat16));
  const GpuRun graph = train_mlp(ExecutorKind::kGraph, comm, m, overlapped(bfloat16));
  CHECK(graph.counters.captures == 1);
  CHECK(graph.counters.capture_failures == 0);
  CHECK(graph.counters.replays == kGpuSteps);
  // The captured run launched each bucket while backward still had gradients to produce.
  CHECK(graph.log.buckets == std::vector<std::vector<std::size_t>>{{5, 4, 3}, {2, 1}, {0}});
  CHECK(graph.log.pending_at_launch == std::vector<std::size_t>{3, 1, 0});
  for (std::size_t i = 0; i < graph.params.size(); ++i) {
    INFO(mlp_param_names()[i] << ", max abs diff " << test_util::max_abs_diff(graph.params[i], eager.params[i]));
    CHECK(test_util::tensors_close(graph.params[i], eager.params[i], 1e-5, 1e-6));
  }
  comm->barrier();
  CHECK(comm->shutdown());
}

TEST_CASE("two GPUs: the captured overlapped step trains like eager, params bit-identical on both ranks, "
          "averages exact",
          "[dist][cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!parallel::backend_available(at::kCUDA)) GRAPHBENCH_SKIP("this build has no NCCL backend");
  if (torch::cuda::device_count() < 2) GRAPHBENCH_SKIP("needs two GPUs");
  // NCCL's all-reduce, and the copy-engine one (peer_exchange.h): both bit for bit NCCL's after backward.
  const auto transport = GENERATE(parallel::GradientTransport::kCollective, parallel::GradientTransport::kCopyEngine);
  INFO((transport == parallel::GradientTransport::kCopyEngine ? "copy-engine all-reduce" : "NCCL's all-reduce"));
  struct RankRuns {
    GpuRun after;  // the all-reduce after backward, eager: the exact average
    GpuRun eager;
    GpuRun graph;
    GpuRun graph_bf16;
  };
  auto ranks = run_world<RankRuns>(2, [transport](const parallel::RankEnv& env) {
    auto comm = parallel::Communicator::connect(env, at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(env.rank)), 120s);
    const Mlp m = mlp_on(env.rank);
    RankRuns runs;
    runs.after = train_mlp(ExecutorKind::kEager, comm, m, StepSync{{kMlpThreeBuckets, false}, false, nullptr});
    runs.eager = train_mlp(ExecutorKind::kEager, comm, m, overlapped(false, transport));
    runs.graph = train_mlp(ExecutorKind::kGraph, comm, m, overlapped(false, transport));
    runs.graph_bf16 = train_mlp(ExecutorKind::kGraph, comm, m, overlapped(/*bfloat16=*/true, transport));
    comm->barrier();
    comm->shutdown();
    return runs;
  });
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    INFO("rank " << r);
    const RankRuns& runs = ranks[r];
    CHECK(runs.graph.counters.captures == 1);
    CHECK(runs.graph.counters.capture_failures == 0);
    CHECK(runs.graph.log.pending_at_launch == std::vector<std::size_t>{3, 1, 0});
    CHECK(runs.graph_bf16.counters.captures == 1);
    for (std::size_t i = 0; i < 6; ++i) {
      INFO(mlp_param_names()[i]);
      // Two ranks: the sum is the same in any order, so overlapped equals after-backward exactly.
      CHECK(at::equal(runs.eager.first_grads[i], runs.after.first_grads[i]));
      CHECK(at::equal(runs.eager.params[i], runs.after.params[i]));
      INFO("graph vs eager, max abs diff " << test_util::max_abs_diff(runs.graph.params[i], runs.eager.params[i]));
      CHECK(test_util::tensors_close(runs.graph.params[i], runs.eager.params[i], 1e-5, 1e-6));
      // Every rank applies the same averaged gradients.
      CHECK(at::equal(runs.graph.params[i], ranks[0].graph.params[i]));
      CHECK(at::equal(runs.graph_bf16.params[i], ranks[0].graph_bf16.params[i]));
      CHECK(at::equal(runs.graph_bf16.first_grads[i], runs.graph_bf16.first_grads[i].to(at::kBFloat16).to(at::kFloat)));
    }
  }
}
