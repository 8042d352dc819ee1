// Correctness before timing: every variant is run from the same initial state on the same inputs
// as eager and what it computes is compared with eager's, step by step. A mismatch fails the
// variant: it is not timed.
//
// The verdict must be right both ways (docs/measuring.md, "Validation"):
// - the same code: a case may ask for settling steps first (TorchScript's profiling executor runs
//   an unoptimised graph in its first calls, whose dropout draws other random numbers on CUDA
//   than the optimised graph every later call and every capture runs);
// - the same random numbers: every runner starts from the same generator state (the case seeds
//   it when it makes a validation runner), and a replay draws what eager draws from that state;
// - rounding: eager is run twice from the same state; where the two differ (non-deterministic
//   kernels, amplified by an optimizer such as Adam that normalises tiny gradients), a variant
//   may differ as much, at about as many elements, and no more;
// - randomness that cannot be matched: a case that can turn its random ops off (dropout modules)
//   validates a variant that failed again with them off, and the record says so.
// A wrong capture still fails: a stale input, a skipped optimizer update or a parameter left
// unbound changes far more elements than eager's own spread.
#pragma once

#include "graphbench/engine/runner/case_records.h"
#include "graphbench/engine/runner/workload.h"
#include "graphbench/core/sampling/sampler.h"

#include <functional>
#include <map>
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
  std::string note;     // how it passed, where not strictly within the tolerances
  // Failed where eager's own runs differ too (a non-deterministic eager): more eager runs may show
  // that its spread is wider than the few runs seen so far.
  bool beyond_eager_spread = false;
};

// `actual` against `expected` within |a - e| <= atol + rtol * |e| at every element; where
// `eager_again` (more eager runs) is given and differs from `expected` somewhere, a value may also
// differ at up to kSpreadCountFactor times as many elements as eager's runs did, by at most
// kSpreadSizeFactor times their largest difference.
inline constexpr double kSpreadCountFactor = 4.0;
inline constexpr double kSpreadSizeFactor = 4.0;
// Eager runs beside the first that measure its spread (at each value, the most elements and the
// largest difference any of them shows).
inline constexpr int kEagerSpreadRuns = 2;
// A variant that fails beyond a non-zero spread gets this many more eager runs, then is compared
// again: a non-deterministic kernel may differ little in a few runs and more in others (a bfloat16
// decoding step on the H100: 23 elements in two runs, about 900 in others), and a correct capture
// must not fail for the few runs that happened to agree. A wrong capture still fails: its
// differences exceed what any number of eager runs shows.
inline constexpr int kEagerSpreadWiderRuns = 6;
// Isolated rounding: at most max(1, numel / 1000) elements of a value beyond the tolerances, each
// within kIsolatedFactor times its tolerance, pass (with a note). A capture that is wrong (a stale
// input, a skipped update, a parameter left unbound) changes far more elements, or one by far more.
inline constexpr double kIsolatedFactor = 16.0;
ValidationResult compare_observations(const Observations& expected, const Observations& actual, double rtol, double atol,
                                      const std::vector<Observations>& eager_again = {});

// Runs eager (three times, and kEagerSpreadWiderRuns more where a variant fails beyond a non-zero
// spread) and every other variant of `variants` for instance.validation_steps()
// steps from the same initial state and compares each with eager as above. A mismatch or an
// exception fails that variant's record, with the largest difference named; when eager itself
// fails, every record fails. `observer` (optional) hears every validation step, for progress lines
// and estimates.
//
// `budget_s` > 0: the part of the case's time limit validation may take (kValidationShare of
// max_time_s, core/sampling/sampler.h). Where eager's first run says that the runs to come would not fit,
// eager's spread runs are left out (the records' warnings say so); a variant whose turn comes
// after the budget is spent is not validated and so skipped, with the reason. Eager's first run
// always runs: it is the reference.
//
// `agreement` (the ranks of a data-parallel case, whose steps hold collectives that pair up): every
// decision that could differ between ranks (the budget's cuts, by the slowest rank's clock; more
// eager runs; validating again without randomness; eager failing) is taken by all ranks together,
// so that they run the same steps.
//
// `runs` (optional): what each variant's validation run observed after its first and its last
// step, by variant name: eager's first run, and every other variant's run with the case's
// randomness on (a data-parallel case checks its replicas' params from them instead of running
// the steps again).
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
