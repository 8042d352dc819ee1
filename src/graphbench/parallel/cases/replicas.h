// Keeping the replicas of data-parallel training equal: the initial params broadcast from rank 0,
// each rank's shard of a batch or a data set, and the instances the phases of a case make alike.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/communication/fingerprints.h"
#include "graphbench/engine/exec/model_store.h"
#include "graphbench/engine/runner/case_records.h"
#include "graphbench/engine/runner/data_parallel.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace graphbench::parallel {

// Every rank's store takes `root`'s values in place: one broadcast per dtype, packed flat.
void broadcast_store(Communicator& communicator, ModelStore& store, int root = 0);

// Rank `rank`'s equal contiguous part of `total` items; the remainder belongs to no rank (equal steps).
struct Shard {
  std::int64_t begin = 0;
  std::int64_t size = 0;
};
Shard shard_of(std::int64_t total, int rank, int world);
// The rows of `global` (dimension 0) that belong to `rank`.
at::Tensor shard_rows(const at::Tensor& global, int rank, int world);

// This rank's shard of `communicator`'s world, averaging as `spec` says (no communicator set).
DataParallelSetup shard_setup(const Communicator& communicator, const CaseSpec& spec);
// `make` run seeded on this rank's shard setup over `communicator`, then the ranks' errors agreed ("" where
// none, see agree_on_errors); an InputError on this rank propagates once the other ranks were told.
std::string make_on_every_rank(const std::shared_ptr<Communicator>& communicator, const CaseSpec& spec,
                               const CaseContext& context, const std::shared_ptr<GradientBucketLog>& bucket_log,
                               const std::function<void(const DataParallelSetup&)>& make);
// The workload's seeded instance for `setup` from `initial_params`; EngineError where it makes none.
std::unique_ptr<DataParallelCase> instance_from(const Workload& workload, const CaseSpec& spec,
                                                const CaseContext& context, const DataParallelSetup& setup,
                                                const ModelStore& initial_params);
// The variants whose records are still ok, each with a fresh record of `records` (sized alike).
std::vector<VariantRecord> still_ok(const std::vector<VariantRecord>& variants, std::vector<ResultRecord>& records);

}  // namespace graphbench::parallel
