// Phase 2 of a data-parallel case (data_parallel_case.h): after the validation steps, are the
// params of each variant bit-identical on every rank, and close to one process that trains on the
// whole global batches?
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

// One entry per variant (in order); a variant that fails a check has its record failed (on every
// rank, with the same message). `one_process`: the case instance for the whole global batch.
// The params must match it within the case's tolerances; with `bfloat16_gradients` (compressed,
// so each averaged gradient is off by up to 2^-7 of the gradients' size: two roundings to 8 bits)
// the largest difference must instead stay within 1/32 of the farthest any param moved in those
// steps, plus the case's atol: a gradient averaged wrongly (not divided, summed twice, of the
// wrong sign) moves the params as far as the steps do.
// `validated` (optional): what each variant's validation run observed (validation.h): a variant
// found there is not run again, its params after the run's last step checked across ranks. With
// `after_first_step` (a case whose validation used its share of --max-time), one process trains for
// one step only, and the params after the validation run's first step are compared with it.
std::vector<ReplicaCheck> check_replicas(Communicator& communicator, DataParallelCase& instance,
                                         DataParallelCase& one_process, const std::vector<VariantRecord>& variants,
                                         bool bfloat16_gradients, const ValidatedRuns* validated = nullptr,
                                         bool after_first_step = false);

// The params a runner observes now (observe() from first_param_observation() on).
std::vector<at::Tensor> observed_params(VariantRunner& runner, const DataParallelCase& instance);

}  // namespace graphbench::parallel
