// What a workload provides to run a case data-parallel (several ranks, each on its own device, the
// gradients all-reduced inside every training step). The runner is in parallel/; a workload opts in by
// overriding Workload::instantiate_data_parallel.
//
// The global batch is the case's batch on every rank: with N ranks a step trains on N x batch
// rows, each rank on its own shard of them (PyTorch's DistributedDataParallel convention: the
// batch size is per process). Every rank generates the same global data from the seed and keeps
// its shard; rank 0's initial params are broadcast to all.
#pragma once

#include "graphbench/engine/exec/model_store.h"
#include "graphbench/engine/plan/tensor_spec.h"
#include "graphbench/engine/runner/workload.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace graphbench {

namespace parallel {
class Communicator;
}

// How a data-parallel step's programs averaged their gradients, as their latest run did it (for
// the case runner and the tests); empty until a step ran. Indices are the params'.
struct GradientBucketLog {
  // The order the gradients were bucketed in: backward's (overlapped), else the params' own.
  std::vector<std::size_t> order;
  std::vector<std::vector<std::size_t>> buckets;  // the buckets, in launch order
  // Per bucket: how many gradients were still to come when it was launched (all 0: no overlap).
  std::vector<std::size_t> pending_at_launch;
};

struct DataParallelSetup {
  // The ranks' collectives; null for a step without all-reduce: the single-process reference (the
  // whole batch), or one rank's shard alone (to tell the all-reduce's exposed time).
  std::shared_ptr<parallel::Communicator> communicator;
  int ranks = 1;  // shards in the global batch: global batch = ranks x the case's batch
  int shard = 0;  // which shard this instance trains on, or kWholeBatch: all of them, in one process
  static constexpr int kWholeBatch = -1;
  // How the step averages its gradients: bucket cap, compression, overlap with the backward pass,
  // gradient chunks (a step without all-reduce chunks as the case's data-parallel step does).
  GradientSyncSpec gradient_sync;
  // Where the step's programs log their buckets (the case runner reads it); may be null.
  std::shared_ptr<GradientBucketLog> bucket_log;
};

// A case instance whose engine programs all-reduce the gradients between backward and the update.
// Its runners observe the loss first and the params after it (observe()).
class DataParallelCase : public CaseInstance {
 public:
  // observe()[first_param_observation()...] are the params: bit-identical on every rank.
  virtual std::size_t first_param_observation() const = 0;
  // Rows this instance trains on per step (its shard, or the whole global batch).
  virtual std::int64_t samples_per_step() const = 0;
  // The gradients one step all-reduces, in order (for timing the all-reduce alone): a chunked
  // weight's chunks (parallel/gradient_sync/gradient_chunks.h) in place of its one gradient.
  virtual std::vector<TensorSpec> gradient_specs() const = 0;
  // The weights whose gradients the step computes and all-reduces in row chunks; none by default.
  virtual std::vector<GradientChunks> chunked_gradients() const { return {}; }
  // The initial params every runner starts from (copied into each runner's store when it is made):
  // the runner broadcasts rank 0's into them before making any.
  virtual ModelStore& initial_params() = 0;
};

// A whole training run data-parallel (kind "training"): each rank trains on its shard of every
// epoch (equal contiguous shards of the training set; the remainder of the division is left out),
// the gradients averaged inside each step; the test pass is sharded too and its sums all-reduced,
// so the test figures are those of the whole test set (less its remainder).
struct DataParallelTraining {
  TrainingSummary summary;               // this rank's times, the world's test figures
  std::vector<at::Tensor> final_params;  // for the check that every rank ends with the same params
  std::int64_t samples_per_step = 0;     // the batch of one rank
};

}  // namespace graphbench
