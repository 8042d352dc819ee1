// [cuda] The gradient all-reduce captured in a CUDA graph with ProcessGroupNCCL, in a world of one
// rank (one GPU is enough): the whole data-parallel step, all-reduce included, replayed by the graph
// executor, must train as the eager executor does. Two ranks on two GPUs are tested through the
// launcher (tests/cli/CliTests.cmake).
#include "parallel/parallel_test_util.h"
#include "support/cuda_skip.h"

using namespace graphbench;
using namespace graphbench::dist_test;
using test_util::Regression;

namespace {

std::vector<at::Tensor> train_on_gpu(ExecutorKind kind, const std::shared_ptr<parallel::Communicator>& comm,
                                     const Regression& r, const ModelStore& initial, Counters* counters) {
  ModelStore store = initial.clone();
  auto program = data_parallel_step(r, comm);
  Engine engine(store);
  auto executor = make_executor(kind, engine, Policy::train());
  for (const auto& batch : test_util::make_batches(r, 6)) executor->run(program, test_util::feed_of(batch));
  if (counters != nullptr) *counters = engine.counters();
  return {store.at(test_util::kWeight).detach().cpu(), store.at(test_util::kBias).detach().cpu()};
}

}  // namespace

TEST_CASE("the data-parallel step with its NCCL all-reduce is captured and replays like eager", "[dist][cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!parallel::backend_available(at::kCUDA)) GRAPHBENCH_SKIP("this build has no NCCL backend");
  auto comm = parallel::Communicator::connect(rank_env(0, 1, parallel::find_free_port("127.0.0.1")), at::Device(at::kCUDA, 0),
                                          60s);
  CHECK(comm->backend() == "nccl");
  Regression r;
  r.device = at::Device(at::kCUDA, 0);
  ModelStore initial;
  test_util::init_params(initial, r);
  parallel::broadcast_store(*comm, initial);  // the communicator exists before any capture
  const auto eager = train_on_gpu(ExecutorKind::kEager, comm, r, initial, nullptr);
  Counters counters;
  const auto graph = train_on_gpu(ExecutorKind::kGraph, comm, r, initial, &counters);
  CHECK(counters.captures == 1);
  CHECK(counters.replays == 6);
  for (std::size_t i = 0; i < 2; ++i) {
    INFO("param " << i << ", max abs diff " << test_util::max_abs_diff(graph[i], eager[i]));
    CHECK(test_util::tensors_close(graph[i], eager[i], 1e-5, 1e-6));
  }
  // The all-reduce alone, captured and replayed.
  parallel::AllReduceAlone alone(comm, {test_util::fspec({r.out, r.in}, r.device)}, ExecutorKind::kGraph);
  for (int i = 0; i < 3; ++i) alone.step();
  comm->barrier();
  CHECK(comm->shutdown());
}
