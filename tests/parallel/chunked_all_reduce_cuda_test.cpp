// [cuda] A step whose fc1.weight gradient is computed and all-reduced in row chunks, captured in a
// CUDA graph with ProcessGroupNCCL in a world of one (one GPU is enough): the chunks' leaves are
// made at capture time on the param's storage, each chunk's all-reduce is captured on the side
// stream as backward hands it over, and the replays train as the eager steps do.
#include "parallel/chunked_step_util.h"
#include "parallel/gpu_training_util.h"
#include "support/cuda_skip.h"

using namespace graphbench;
using namespace graphbench::dist_test;

namespace {

GpuRun train_chunked(ExecutorKind kind, const std::shared_ptr<parallel::Communicator>& comm, const Mlp& m) {
  const StepSync sync{{kTwoRowChunks, false}, /*overlap=*/true, std::make_shared<GradientBucketLog>()};
  return train_on_gpu(kind, comm, m, chunked_mlp_step(m, comm, sync, kTwoRowChunks), sync.log);
}

}  // namespace

TEST_CASE("a chunked step is captured with its chunks' all-reduces and replays like eager (one GPU)",
          "[dist][cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!parallel::backend_available(at::kCUDA)) GRAPHBENCH_SKIP("this build has no NCCL backend");
  auto comm = parallel::Communicator::connect(rank_env(0, 1, parallel::find_free_port("127.0.0.1")),
                                              at::Device(at::kCUDA, 0), 60s);
  Mlp m;
  m.device = at::Device(at::kCUDA, 0);
  const GpuRun eager = train_chunked(ExecutorKind::kEager, comm, m);
  const GpuRun graph = train_chunked(ExecutorKind::kGraph, comm, m);
  CHECK(graph.counters.captures == 1);
  CHECK(graph.counters.capture_failures == 0);
  CHECK(graph.counters.replays == kGpuSteps);
  // fc1.weight's four chunks (0-3) after the other gradients, each a bucket of its own launched
  // while the later chunks were still to come, in the captured run as in the eager one.
  const std::vector<std::vector<std::size_t>> buckets{{8}, {7}, {6}, {5}, {4}, {0}, {1}, {2}, {3}};
  CHECK(graph.log.buckets == buckets);
  CHECK(graph.log.pending_at_launch == std::vector<std::size_t>{8, 7, 6, 5, 4, 3, 2, 1, 0});
  CHECK(eager.log.buckets == buckets);
  for (std::size_t i = 0; i < graph.params.size(); ++i) {
    INFO(mlp_param_names()[i] << ", max abs diff " << test_util::max_abs_diff(graph.params[i], eager.params[i]));
    CHECK(test_util::tensors_close(graph.params[i], eager.params[i], 1e-5, 1e-6));
  }
  // The replays trained the whole param through its chunks.
  CHECK_FALSE(at::equal(graph.params[0], mlp_params(Mlp{}).at("fc1.weight")));
  comm->barrier();
  CHECK(comm->shutdown());
}
