// Phase 2 of a data-parallel case: after the validation steps, are each variant's params
// bit-identical on every rank, and close to one process training on the whole global batches?
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/engine/runner/case_records.h"
#include "graphbench/engine/runner/data_parallel.h"
#include "graphbench/engine/runner/validation.h"

#include <vector>

namespace graphbench::parallel {

struct ReplicaCheck {
  bool identical = false;
  std::optional<double> max_error_vs_one_process;
};

// One entry per variant; a failed check fails the record on every rank alike. The params must match
// `one_process` (the whole global batch) within the case's tolerances; with `bfloat16_gradients`
// (each average off by up to 2^-7) within 1/32 of the farthest any param moved plus atol: a wrongly
// averaged gradient moves them as far as the steps do. `validated`: the validation runs' observations,
// used instead of running again; `after_first_step`: compared after one step only.
std::vector<ReplicaCheck> check_replicas(Communicator& communicator, DataParallelCase& instance,
                                         DataParallelCase& one_process, const std::vector<VariantRecord>& variants,
                                         bool bfloat16_gradients, const ValidatedRuns* validated = nullptr,
                                         bool after_first_step = false);

// The params a runner observes now (observe() from first_param_observation() on).
std::vector<at::Tensor> observed_params(VariantRunner& runner, const DataParallelCase& instance);

}  // namespace graphbench::parallel
