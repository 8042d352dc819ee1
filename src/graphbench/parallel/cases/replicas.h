// Keeping the replicas of data-parallel training equal: the initial params broadcast from rank 0,
// each rank's shard of a batch or a data set, and a check that the params are bit-identical on
// every rank.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/communication/fingerprints.h"
#include "graphbench/engine/exec/model_store.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <string>
#include <vector>

namespace graphbench::parallel {

// Every rank's store takes `root`'s values (same names on every rank; pointers unchanged). One
// broadcast per dtype: the entries are packed into a flat buffer.
void broadcast_store(Communicator& communicator, ModelStore& store, int root = 0);

// Rank `rank`'s part of `total` items split over `world` ranks: equal parts, contiguous; the
// remainder (total % world items at the end) belongs to no rank, so that every rank runs the same
// number of steps.
struct Shard {
  std::int64_t begin = 0;
  std::int64_t size = 0;
};
Shard shard_of(std::int64_t total, int rank, int world);
// The rows of `global` (dimension 0) that belong to `rank`.
at::Tensor shard_rows(const at::Tensor& global, int rank, int world);

}  // namespace graphbench::parallel
