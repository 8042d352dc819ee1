// One case run data-parallel: every rank runs this with the same arguments, in step. The phases of
// a benchmark case (validate, time, summarise) with what data parallelism adds:
//   1. the workload's data-parallel instance on every rank, rank 0's initial params broadcast;
//   2. every variant validated against eager on every rank; then, after the validation steps, the
//      params checked bit-identical on every rank (fingerprints all-reduced) and close to one
//      process training on the whole global batches;
//   3. the variants timed interleaved, the ranks agreeing on every sample (sampler.h); with
//      --trace, a few steps of each traced on every rank, one file per rank (case_trace.h);
//   4. the same variants timed on every rank without any all-reduce, for the exposed all-reduce;
//   5. the gradient all-reduce timed alone, eagerly and captured;
//   6. the same variants timed in a world of one (rank 0 alone), for the scaling efficiency;
//   7. the ranks' medians gathered on rank 0 into each record's data-parallel figures.
// A phase that fails on one rank fails the variant (or the case) on all. Variants without an
// engine program (jit, native, reference) have no data-parallel form and are skipped. Kernel
// profiles (--profile) are not taken: they would add steps, and collectives, on every rank.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/workload.h"

#include <memory>
#include <ostream>
#include <vector>

namespace graphbench::parallel {

// The records (complete on rank 0; the other ranks' carry only their own timings). InputError
// (bad data or parameters on this rank) propagates after the other ranks were told.
std::vector<ResultRecord> run_data_parallel_case(const Workload& workload, const CaseSpec& spec,
                                                 const CaseContext& context, const Environment& environment,
                                                 const std::shared_ptr<Communicator>& communicator, std::ostream* log);

}  // namespace graphbench::parallel
