// The [cuda] data-parallel tests' training loop: a perceptron step program run for a few steps on
// one GPU per rank, each rank on its shard of a seeded global batch per step.
#pragma once

#include "parallel/parallel_test_util.h"

namespace graphbench::dist_test {

constexpr int kGpuSteps = 6;

struct GpuRun {
  std::vector<at::Tensor> first_grads;  // the averaged gradients of the first step, on the CPU
  std::vector<at::Tensor> params;       // after the last step, on the CPU
  Counters counters;
  GradientBucketLog log;
};

// Runs `program` (a step of the perceptron `m`, outputs "loss" then the gradients) kGpuSteps times
// with `kind`; `log`: where the program logs its buckets (may be null).
inline GpuRun train_on_gpu(ExecutorKind kind, const std::shared_ptr<parallel::Communicator>& comm, const Mlp& m,
                           const std::shared_ptr<const Program>& program,
                           const std::shared_ptr<GradientBucketLog>& log) {
  ModelStore store = mlp_params(m);
  parallel::broadcast_store(*comm, store);  // the communicator exists before any capture
  Engine engine(store);
  auto executor = make_executor(kind, engine, Policy::train(), ExecutorOptions{3, /*fallback=*/false, {}});
  GpuRun run;
  const int world = comm->world_size();
  for (int step = 0; step < kGpuSteps; ++step) {
    const test_util::Batch global = mlp_batch(m, m.batch * world, 100 + static_cast<std::uint64_t>(step));
    const Feed feed = test_util::feed_of(shard(global, comm->rank(), world));
    // The ranks meet through the store (no CUDA call) before and after each step, whose run may
    // capture: ranks as threads of one process share CUDA's sync-debug mode, which a capture sets
    // to "error" for the whole process, so a rank's blocking copy (the feed's, the outputs') while
    // another rank's thread captures would throw.
    comm->all_gather_strings("");
    auto outputs = executor->run(program, feed);
    comm->all_gather_strings("");
    if (step == 0) {
      for (std::size_t i = 1; i < outputs.size(); ++i) run.first_grads.push_back(outputs[i].detach().cpu());
    }
  }
  for (const auto& name : mlp_param_names()) run.params.push_back(store.at(name).detach().cpu());
  run.counters = engine.counters();
  if (log) run.log = *log;
  return run;
}

}  // namespace graphbench::dist_test
