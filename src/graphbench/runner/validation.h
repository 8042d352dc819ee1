// Correctness before timing: every variant is run from the same initial state on the same inputs
// as eager (dropout off) and what it computes is compared with eager's, step by step. A mismatch
// fails the variant: it is not timed.
#pragma once

#include "graphbench/runner/case_records.h"
#include "graphbench/runner/workload.h"

#include <functional>
#include <string>
#include <vector>

namespace graphbench {

// What a runner observes after each of `steps` steps. `hook` (optional) hears each step's number
// (from 1) before it runs (seconds < 0) and after, with its wall time in seconds.
using Observations = std::vector<std::vector<at::Tensor>>;
Observations observe_steps(VariantRunner& runner, int steps,
                           const std::function<void(int step, double seconds)>& hook = {});

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
// `observer` (optional) hears every validation step, for progress lines and estimates.
struct ValidationStep {
  std::string variant;
  int index = 0;  // 1 for eager, then the others in order
  int count = 0;  // variants validated, eager included
  int step = 0;   // from 1
  int steps = 0;
  double seconds = 0.0;  // the step's wall time; negative before the step has run
};
using ValidationObserver = std::function<void(const ValidationStep&)>;
void validate_against_eager(CaseInstance& instance, const std::vector<VariantRecord>& variants,
                            const ValidationObserver& observer = {});

}  // namespace graphbench
