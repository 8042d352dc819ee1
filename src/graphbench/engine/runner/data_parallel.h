// What a workload provides to run a case data-parallel (ranks on their own devices, the gradients
// all-reduced inside every step; the runner is in parallel/). The case's batch is per rank, as in
// DistributedDataParallel: every rank generates the same global data from the seed and keeps its
// shard; rank 0's initial params are broadcast to all.
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

// How a step's programs averaged their gradients in their latest run (indices are the params').
struct GradientBucketLog {
  // The order the gradients were bucketed in: backward's (overlapped), else the params' own.
  std::vector<std::size_t> order;
  std::vector<std::vector<std::size_t>> buckets;  // the buckets, in launch order
  // Per bucket: how many gradients were still to come when it was launched (all 0: no overlap).
  std::vector<std::size_t> pending_at_launch;
};

struct DataParallelSetup {
  // The ranks' collectives; null for a step without all-reduce (one process, or one shard alone).
  std::shared_ptr<parallel::Communicator> communicator;
  int ranks = 1;  // shards in the global batch: global batch = ranks x the case's batch
  int shard = 0;  // which shard this instance trains on, or kWholeBatch: all of them, in one process
  static constexpr int kWholeBatch = -1;
  // How the step averages its gradients (a step without all-reduce still chunks alike).
  GradientSyncSpec gradient_sync;
  // Where the step's programs log their buckets (the case runner reads it); may be null.
  std::shared_ptr<GradientBucketLog> bucket_log;
};

// A case whose programs all-reduce the gradients before the update; runners observe loss, then params.
class DataParallelCase : public CaseInstance {
 public:
  // observe()[first_param_observation()...] are the params: bit-identical on every rank.
  virtual std::size_t first_param_observation() const = 0;
  // Rows this instance trains on per step (its shard, or the whole global batch).
  virtual std::int64_t samples_per_step() const = 0;
  // The gradients one step all-reduces, in order (a chunked weight's chunks in place of its gradient).
  virtual std::vector<TensorSpec> gradient_specs() const = 0;
  // The weights whose gradients the step computes and all-reduces in row chunks; none by default.
  virtual std::vector<GradientChunks> chunked_gradients() const { return {}; }
  // The initial params every runner starts from (rank 0's, broadcast before any runner is made).
  virtual ModelStore& initial_params() = 0;
};

// A whole training run data-parallel: each rank trains on its equal shard of every epoch (the
// remainder left out); the test pass is sharded too and its sums all-reduced.
struct DataParallelTraining {
  TrainingSummary summary;               // this rank's times, the world's test figures
  std::vector<at::Tensor> final_params;  // for the check that every rank ends with the same params
  std::int64_t samples_per_step = 0;     // the batch of one rank
};

}  // namespace graphbench
