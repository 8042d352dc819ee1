// One case run data-parallel: every rank runs this in step. A benchmark case's phases, plus:
//   1. the workload's data-parallel instance on every rank, rank 0's initial params broadcast;
//   2. validation on every rank, then the params checked bit-identical across ranks and close to
//      one process training on the whole global batches;
//   3. the variants timed interleaved, the ranks agreeing on every sample (--trace: a file per rank);
//   4. the same variants without any all-reduce, for the exposed all-reduce;
//   5. the gradient all-reduce alone, eager and captured;
//   6. rank 0 alone (a world of one), for the scaling efficiency;
//   7. the ranks' medians gathered into rank 0's records.
// A phase failing on one rank fails it on all. Variants without an engine program are skipped; no
// kernel profiles (they would add steps and collectives on every rank).
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"

#include <memory>
#include <ostream>
#include <vector>

namespace graphbench::parallel {

// Why `variant` cannot run data-parallel here, or "".
std::string data_parallel_skip_reason(const Variant& variant, const CaseContext& context);

// The records (complete on rank 0; the other ranks' carry only their own timings). InputError
// (bad data or parameters on this rank) propagates after the other ranks were told.
std::vector<ResultRecord> run_data_parallel_case(const Workload& workload, const CaseSpec& spec,
                                                 const CaseContext& context, const Environment& environment,
                                                 const std::shared_ptr<Communicator>& communicator, std::ostream* log);

}  // namespace graphbench::parallel
