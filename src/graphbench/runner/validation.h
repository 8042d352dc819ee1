// Correctness before timing: every variant is run from the same initial state on the same inputs
// as eager (dropout off) and what it computes is compared with eager's, step by step. A mismatch
// fails the variant: it is not timed.
#pragma once

#include "graphbench/runner/case_records.h"
#include "graphbench/runner/workload.h"

#include <string>
#include <vector>

namespace graphbench {

// What a runner observes after each of `steps` steps.
using Observations = std::vector<std::vector<at::Tensor>>;
Observations observe_steps(VariantRunner& runner, int steps);

struct ValidationResult {
  bool ok = true;
  double max_abs_error = 0.0;
  std::string message;  // why it failed
};

ValidationResult compare_observations(const Observations& expected, const Observations& actual, double rtol, double atol);

// Runs eager and every other variant of `variants` for instance.validation_steps() steps from the
// same initial state (dropout off) and compares each with eager within the instance's tolerances.
// A mismatch or an exception fails that variant's record, with the largest difference named; when
// eager itself fails, every record fails.
void validate_against_eager(CaseInstance& instance, const std::vector<VariantRecord>& variants);

}  // namespace graphbench
