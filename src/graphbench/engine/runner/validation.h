// Correctness before timing: every variant runs from eager's initial state and inputs and is compared
// with eager step by step; a mismatch fails it untimed (docs/measuring.md, "Validation"). The verdict
// must be right both ways: settling steps first where a case asks (TorchScript's profiling executor
// draws other dropout numbers in its first, unoptimised calls); one generator state for every runner;
// eager run more than once, so a variant may differ as much as eager differs from itself (non-
// deterministic kernels, amplified by Adam); randomness that cannot be matched turned off and the
// variant validated again, the record saying so. A wrong capture (stale input, skipped update,
// unbound param) changes far more elements than eager's own spread.
#pragma once

#include "graphbench/engine/runner/case_records.h"
#include "graphbench/engine/runner/workload.h"
#include "graphbench/core/sampling/sampler.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace graphbench {

// What a runner observes after each of `steps` steps; `hook` hears each step (from 1) before it runs
// (seconds < 0) and after, with its wall time.
using Observations = std::vector<std::vector<at::Tensor>>;
Observations observe_steps(VariantRunner& runner, int steps,
                           const std::function<void(int step, double seconds)>& hook = {});

struct ValidationResult {
  bool ok = true;
  double max_abs_error = 0.0;
  std::string message;  // why it failed
  std::string note;     // how it passed, where not strictly within the tolerances
  // Failed where eager differs from itself too: more eager runs may show a wider spread.
  bool beyond_eager_spread = false;
};

// |a - e| <= atol + rtol * |e| at every element; where `eager_again` differs from `expected`, a value
// may also differ at up to kSpreadCountFactor times as many elements, by kSpreadSizeFactor times as much.
inline constexpr double kSpreadCountFactor = 4.0;
inline constexpr double kSpreadSizeFactor = 4.0;
// Eager runs beside the first that measure its spread.
inline constexpr int kEagerSpreadRuns = 2;
// More eager runs for a variant failing beyond a non-zero spread, then compared again: a
// non-deterministic kernel may differ little in a few runs and more in others (a bfloat16 decoding
// step on the H100: 23 elements in two runs, about 900 in others).
inline constexpr int kEagerSpreadWiderRuns = 6;
// Isolated rounding passes with a note: at most max(1, numel / 1000) elements beyond the tolerances,
// each within kIsolatedFactor times its tolerance.
inline constexpr double kIsolatedFactor = 16.0;
ValidationResult compare_observations(const Observations& expected, const Observations& actual, double rtol, double atol,
                                      const std::vector<Observations>& eager_again = {});

// Runs eager and every other variant for instance.validation_steps() steps and compares them as
// above; a mismatch or exception fails the variant's record, a failing eager every record.
// `observer` hears every step. `budget_s` > 0 (the validation share of the case's limit): eager's
// spread runs are left out where they would not fit, and a variant whose turn comes after the budget
// is skipped, saying why; eager's first run always runs. `agreement` (data-parallel ranks): every
// decision that could differ between ranks is taken together, so the ranks run the same steps.
// `runs`: what each variant's run (randomness on) observed after its first and last step, by name.
struct ValidationStep {
  std::string variant;
  int index = 0;  // 1 for eager, then the others in order
  int count = 0;  // variants validated, eager included
  int step = 0;   // from 1
  int steps = 0;
  double seconds = 0.0;  // the step's wall time; negative before the step has run
};
using ValidationObserver = std::function<void(const ValidationStep&)>;
struct ValidatedRun {
  std::vector<at::Tensor> first_step;  // observed after the first step
  std::vector<at::Tensor> last_step;   // after the last
};
using ValidatedRuns = std::map<std::string, ValidatedRun>;
void validate_against_eager(CaseInstance& instance, const std::vector<VariantRecord>& variants,
                            const ValidationObserver& observer = {}, double budget_s = 0.0,
                            const SamplingAgreement* agreement = nullptr,
                            ValidatedRuns* runs = nullptr);

}  // namespace graphbench
