#include "graphbench/parallel/cases/replica_checks.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/cases/agreement.h"
#include "graphbench/parallel/cases/progress_watchdog.h"
#include "graphbench/parallel/cases/replicas.h"
#include "graphbench/engine/runner/output_match.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace graphbench::parallel {

namespace {

// The params at the tail of a runner's observations (observe() from first_param_observation() on).
std::vector<at::Tensor> params_of(const std::vector<at::Tensor>& observed, const DataParallelCase& instance) {
  const auto first = static_cast<std::ptrdiff_t>(instance.first_param_observation());
  if (static_cast<std::ptrdiff_t>(observed.size()) < first) throw EngineError("the run observed no params");
  return std::vector<at::Tensor>(observed.begin() + first, observed.end());
}

struct Closeness {
  bool close = true;
  double max_abs_error = 0.0;
};

// Every param within the one rule for outputs (engine/runner/output_match.h).
Closeness closeness(const std::vector<at::Tensor>& actual, const std::vector<at::Tensor>& expected, double rtol,
                    double atol) {
  Closeness c;
  if (actual.size() != expected.size()) return Closeness{false, std::numeric_limits<double>::infinity()};
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (actual[i].sizes() != expected[i].sizes()) return Closeness{false, std::numeric_limits<double>::infinity()};
    if (actual[i].numel() == 0) continue;
    const OutputMatch m = match_output(expected[i], actual[i], rtol, atol);
    c.max_abs_error = std::max(c.max_abs_error, m.max_abs);
    c.close = c.close && m.ok();
  }
  return c;
}

// The largest |a - b| over the tensors.
double max_abs_difference(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
  double largest = 0.0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i].numel() == 0) continue;
    // In float64 on a's device (GPU float64 arithmetic is exact IEEE, as the host's).
    largest = std::max(largest,
                       (a[i].to(at::kDouble) - b[i].to(a[i].device(), at::kDouble)).abs().max().item<double>());
  }
  return largest;
}

// Compressed gradients: the share of the params' largest move their difference may reach.
constexpr double kBfloat16ShareOfMove = 1.0 / 32.0;

}  // namespace

std::vector<at::Tensor> observed_params(VariantRunner& runner, const DataParallelCase& instance) {
  return params_of(runner.observe(), instance);
}

std::vector<ReplicaCheck> check_replicas(Communicator& communicator, DataParallelCase& instance,
                                         DataParallelCase& one_process, const std::vector<VariantRecord>& variants,
                                         bool bfloat16_gradients, const ValidatedRuns* validated,
                                         bool after_first_step) {
  const int validation_steps = instance.validation_steps();
  // The steps after which the params are compared with one process.
  const int steps = validated != nullptr && after_first_step ? 1 : validation_steps;
  const Variant eager = Variant::named("eager");  // a copy: GCC 13 takes the reference for a dangling one
  // One process on the whole global batches: no collective, every rank computes it for itself.
  std::vector<at::Tensor> expected;
  double largest_move = 0.0;  // how far the params moved in those steps
  std::string one_process_error;
  try {
    auto runner = one_process.make_runner(eager, /*validation=*/true);
    // Before any step a runner observes no outputs yet: its params are the tail of what it observes.
    const std::vector<at::Tensor> before = runner->observe();
    for (int s = 0; s < steps; ++s) {
      runner->step();
      heartbeat();  // progress, though without a collective: a step on the whole global batch may be long
    }
    expected = observed_params(*runner, one_process);
    if (before.size() >= expected.size()) {
      const std::vector<at::Tensor> initial(before.end() - static_cast<std::ptrdiff_t>(expected.size()), before.end());
      largest_move = max_abs_difference(expected, initial);
    }
  } catch (const std::exception& e) {
    one_process_error = fmt::format("the one-process reference failed: {}", e.what());
  }

  std::vector<ReplicaCheck> checks(variants.size());
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const VariantRecord& v = variants[i];
    if (v.record->status != RecordStatus::kOk) continue;
    std::string error = one_process_error;
    std::vector<at::Tensor> params;    // after every validation step: bit-identical on every rank
    std::vector<at::Tensor> compared;  // after `steps`: close to one process
    try {
      const ValidatedRun* run = nullptr;
      if (validated != nullptr) {
        const auto found = validated->find(v.variant.name());
        if (found != validated->end()) run = &found->second;
      }
      if (run != nullptr) {
        params = params_of(run->last_step, instance);
        compared = steps == validation_steps ? params : params_of(run->first_step, instance);
      } else {
        auto runner = instance.make_runner(v.variant, /*validation=*/true);
        for (int s = 1; s <= validation_steps; ++s) {
          runner->step();
          if (s == steps) compared = observed_params(*runner, instance);
        }
        params = observed_params(*runner, instance);
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
    // Every rank takes part in the fingerprint all-reduce, whatever happened above.
    const Agreement agreement = agree_across_ranks(communicator, params.empty() ? 0 : fingerprint(params));
    checks[i].identical = agreement.same && !params.empty();
    if (error.empty() && !agreement.same) {
      error = fmt::format("params differ across ranks after {} steps: {}", validation_steps, agreement.describe());
    }
    if (error.empty() && !bfloat16_gradients) {
      const Closeness c = closeness(compared, expected, instance.rtol(eager), instance.atol(eager));
      checks[i].max_error_vs_one_process = c.max_abs_error;
      if (!c.close) {
        error = fmt::format(
            "params after {} steps differ from one process training on the whole global batches: max abs error "
            "{:.3g} (rtol {:g}, atol {:g})",
            steps, c.max_abs_error, instance.rtol(eager), instance.atol(eager));
      }
    } else if (error.empty()) {
      const Closeness c = closeness(compared, expected, 0.0, std::numeric_limits<double>::infinity());
      checks[i].max_error_vs_one_process = c.max_abs_error;
      const double bound = kBfloat16ShareOfMove * largest_move + instance.atol(eager);
      if (!c.close || !(c.max_abs_error <= bound)) {
        error = fmt::format(
            "params after {} steps with bfloat16 gradients differ from one process training on the whole global "
            "batches (float32) by up to {:.3g}, more than 1/32 of the farthest any param moved ({:.3g}) plus atol {:g}",
            steps, c.max_abs_error, largest_move, instance.atol(eager));
      }
    }
    const std::string agreed = agree_on_errors(communicator, error);
    if (!agreed.empty()) mark_failed(*v.record, agreed);
  }
  return checks;
}

}  // namespace graphbench::parallel
