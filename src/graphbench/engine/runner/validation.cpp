#include "graphbench/engine/runner/validation.h"

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/engine/runner/case_timing.h"
#include "graphbench/engine/runner/output_match.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

namespace graphbench {

Observations observe_steps(VariantRunner& runner, int steps, const std::function<void(int, double)>& hook) {
  Observations out;
  for (int s = 0; s < steps; ++s) {
    if (hook) hook(s + 1, -1.0);
    const auto start = std::chrono::steady_clock::now();
    runner.step();
    out.push_back(runner.observe());  // copies the step's results
    if (hook) hook(s + 1, seconds_since(start));
  }
  return out;
}

namespace {

// How far (most elements, largest difference) eager's other runs differ at value `i` of step `s`.
std::optional<OutputMatch> eager_spread(const Observations& expected, const std::vector<Observations>& eager_again,
                                        std::size_t s, std::size_t i, double rtol, double atol) {
  std::optional<OutputMatch> spread;
  for (const Observations& again : eager_again) {
    if (s >= again.size() || i >= again[s].size() || again[s][i].sizes() != expected[s][i].sizes()) continue;
    const OutputMatch d = match_output(expected[s][i], again[s][i], rtol, atol);
    if (!spread) spread = OutputMatch{};
    spread->outside = std::max(spread->outside, d.outside);
    spread->max_abs = std::max(spread->max_abs, d.max_abs);
  }
  return spread;
}

}  // namespace

ValidationResult compare_observations(const Observations& expected, const Observations& actual, double rtol, double atol,
                                      const std::vector<Observations>& eager_again) {
  ValidationResult result;
  // The note of the first value that passes only by a rule: where and beyond what, then `how`.
  const auto note_once = [&](std::size_t s, std::size_t i, const std::string& how) {
    if (result.note.empty()) {
      result.note =
          fmt::format("differs from eager beyond rtol {:g}, atol {:g} at step {}, value {} {}", rtol, atol, s + 1, i, how);
    }
  };
  for (std::size_t s = 0; s < expected.size(); ++s) {
    if (s >= actual.size() || actual[s].size() != expected[s].size()) {
      result.ok = false;
      result.message = fmt::format("step {}: observed {} values, eager observed {}", s + 1,
                                   s < actual.size() ? actual[s].size() : 0, expected[s].size());
      return result;
    }
    for (std::size_t i = 0; i < expected[s].size(); ++i) {
      const at::Tensor& e = expected[s][i];
      const at::Tensor& a = actual[s][i];
      if (e.sizes() != a.sizes()) {
        result.ok = false;
        result.message = fmt::format("step {}, value {}: shape {} differs from eager's {}", s + 1, i,
                                     fmt::join(a.sizes(), "x"), fmt::join(e.sizes(), "x"));
        return result;
      }
      const OutputMatch d = match_output(e, a, rtol, atol);
      result.max_abs_error = std::max(result.max_abs_error, d.max_abs);
      if (d.outside == 0) continue;
      if (d.ok()) {
        // float16 and bfloat16: rounding, judged by the rule alone, whatever eager's own runs did.
        note_once(s, i, fmt::format("at {} of {} elements, by up to {:.3g}: {}", d.outside, d.numel, d.max_abs,
                                    d.describe()));
        continue;
      }
      if (is_low_precision(e.scalar_type())) {
        result.ok = false;
        result.note.clear();
        result.message = fmt::format(
            "does not match eager at step {}, value {}: max abs error {:.3g} at {} of {} elements (rtol {:g}, atol "
            "{:g}): {}",
            s + 1, i, d.max_abs, d.outside, e.numel(), rtol, atol, d.describe());
        return result;
      }
      // Eager's own spread at this value, where more eager runs were given.
      const std::optional<OutputMatch> spread = eager_spread(expected, eager_again, s, i, rtol, atol);
      const bool within_spread = spread && spread->outside > 0 && std::isfinite(d.max_abs) &&
                                 static_cast<double>(d.outside) <= kSpreadCountFactor * static_cast<double>(spread->outside) &&
                                 d.max_abs <= kSpreadSizeFactor * spread->max_abs;
      const bool isolated = std::isfinite(d.max_ratio) && d.max_ratio <= kIsolatedFactor &&
                            d.outside <= std::max<std::int64_t>(1, d.numel / 1000);
      if (!within_spread && isolated) {
        note_once(s, i, fmt::format("at {} of {} elements, by up to {:.3g} ({:.1f} times the tolerance there): "
                                    "isolated rounding",
                                    d.outside, d.numel, d.max_abs, d.max_ratio));
        continue;
      }
      if (within_spread) {
        note_once(s, i, fmt::format("({} elements, by up to {:.3g}) as eager differs from itself ({} elements, up to "
                                    "{:.3g}): rounding, within the spread of eager",
                                    d.outside, d.max_abs, spread->outside, spread->max_abs));
        continue;
      }
      result.ok = false;
      result.note.clear();  // a failure says why; how other values passed does not matter
      result.message = fmt::format(
          "does not match eager at step {}, value {}: max abs error {:.3g} at {} of {} elements (rtol {:g}, atol {:g})",
          s + 1, i, d.max_abs, d.outside, e.numel(), rtol, atol);
      if (spread && spread->outside > 0) {
        result.beyond_eager_spread = true;
        result.message += fmt::format("; eager differs from itself at {} elements by up to {:.3g} (in {} runs)",
                                      spread->outside, spread->max_abs, eager_again.size() + 1);
      } else if (spread) {
        result.message += "; eager repeats itself within the tolerances";
      }
      return result;
    }
  }
  return result;
}

namespace {

// Eager's two runs, with the case's randomness on or off.
struct EagerRuns {
  Observations first;
  std::vector<Observations> again;  // kEagerSpreadRuns more: eager's own spread
};

class Validator {
 public:
  Validator(CaseInstance& instance, const std::vector<VariantRecord>& variants, const ValidationObserver& observer)
      : instance_(instance), observer_(observer), steps_(instance.validation_steps()) {
    count_ = 1;
    for (const auto& v : variants) count_ += v.variant.is_eager_baseline() ? 0 : 1;
  }

  // Settling steps, then eager's first run; throws what eager throws.
  Observations eager_first_run(bool report) {
    const Variant eager = Variant::named("eager");  // a copy: GCC 13 takes the reference for a dangling one
    if (const int settle = instance_.settle_steps(); settle > 0) {
      observe_steps(*instance_.make_runner(eager, /*validation=*/true), settle);
    }
    return observe_steps(*instance_.make_runner(eager, true), steps_, report ? hook(eager, 1) : nullptr);
  }

  // Eager's other runs, for its spread.
  std::vector<Observations> eager_spread_runs(int runs = kEagerSpreadRuns) {
    const Variant eager = Variant::named("eager");
    std::vector<Observations> again;
    for (int r = 0; r < runs; ++r) again.push_back(observe_steps(*instance_.make_runner(eager, true), steps_));
    return again;
  }

  // Eager's first run and its spread; throws what eager throws.
  EagerRuns eager_runs(bool report) {
    EagerRuns runs;
    runs.first = eager_first_run(report);
    runs.again = eager_spread_runs();
    return runs;
  }

  // The variant's validation run against eager's, and the runner that made it.
  struct Checked {
    ValidationResult result;
    std::unique_ptr<VariantRunner> runner;
    Observations observed;  // what the variant's run observed, to judge again against a wider spread
  };
  Checked validate(const Variant& variant, int index, const EagerRuns& eager) {
    Checked c;
    c.runner = instance_.make_runner(variant, /*validation=*/true);
    c.observed = observe_steps(*c.runner, steps_, hook(variant, index));
    c.result = compare_observations(eager.first, c.observed, instance_.rtol(variant), instance_.atol(variant), eager.again);
    return c;
  }

 private:
  std::function<void(int, double)> hook(const Variant& variant, int index) {
    if (!observer_) return nullptr;
    return [this, name = variant.name(), index](int step, double seconds) {
      observer_(ValidationStep{name, index, count_, step, steps_, seconds});
    };
  }

  CaseInstance& instance_;
  const ValidationObserver& observer_;
  int steps_;
  int count_ = 1;
};

// A variant that failed with the case's randomness on, validated again with it off.
ValidationResult validate_without_randomness(CaseInstance& instance, Validator& validator, const Variant& variant,
                                             int index, std::optional<EagerRuns>& eager_off,
                                             const ValidationResult& with_randomness) {
  struct Restore {
    CaseInstance& instance;
    ~Restore() { instance.set_randomness(true); }
  } restore{instance};
  const std::string what = instance.randomness_description();
  instance.set_randomness(false);
  if (!eager_off) eager_off = validator.eager_runs(/*report=*/false);
  ValidationResult off = validator.validate(variant, index, *eager_off).result;
  if (off.ok) {
    off.note = fmt::format("validated with {} off: with it on, the variant's random numbers differ from eager's ({})",
                           what, with_randomness.message);
    return off;
  }
  off.note.clear();
  off.message = fmt::format("{} (and with {} off: {})", with_randomness.message, what, off.message);
  return off;
}

// cuDNN's deterministic algorithms while validation runs: the defaults may sum a convolution's weight
// gradient with atomics in any order, and Adam grows those last bits into differences a capture did
// not cause. The timed runners, made afterwards, use the defaults again.
class DeterministicCudnn : NonCopyable {
 public:
  DeterministicCudnn()
      : deterministic_(at::globalContext().deterministicCuDNN()), benchmark_(at::globalContext().benchmarkCuDNN()) {
    at::globalContext().setDeterministicCuDNN(true);
    at::globalContext().setBenchmarkCuDNN(false);
  }
  ~DeterministicCudnn() {
    at::globalContext().setDeterministicCuDNN(deterministic_);
    at::globalContext().setBenchmarkCuDNN(benchmark_);
  }

 private:
  bool deterministic_;
  bool benchmark_;
};

}  // namespace

void validate_against_eager(CaseInstance& instance, const std::vector<VariantRecord>& variants,
                            const ValidationObserver& observer, double budget_s, const SamplingAgreement* agreement,
                            ValidatedRuns* runs) {
  const DeterministicCudnn deterministic;
  // Decisions that could differ between ranks are taken together: true on every rank where true on any.
  const auto any_rank = [agreement](bool local) {
    return agreement != nullptr && agreement->max_over_ranks ? agreement->max_over_ranks({local ? 1 : 0})[0] != 0
                                                             : local;
  };
  // A run's first and last observed steps, kept in `runs` where asked for.
  const auto keep_run = [runs](const std::string& name, const Observations& observed) {
    if (runs != nullptr && !observed.empty()) (*runs)[name] = ValidatedRun{observed.front(), observed.back()};
  };
  const auto started = std::chrono::steady_clock::now();
  // The time validation has taken: the slowest rank's where ranks validate together.
  const auto spent_s = [&] { return slowest_rank_s(agreement, seconds_since(started)); };
  Validator validator(instance, variants, observer);
  const int others = static_cast<int>(std::count_if(variants.begin(), variants.end(),
                                                    [](const VariantRecord& v) { return !v.variant.is_eager_baseline(); }));
  EagerRuns eager;
  bool spread_cut = false;
  std::string eager_error;
  try {
    eager.first = validator.eager_first_run(/*report=*/true);
  } catch (const std::exception& e) {
    eager_error = e.what();
  }
  if (any_rank(!eager_error.empty())) {
    // Eager failed here (or on another rank, whose records say why and are agreed on afterwards).
    if (!eager_error.empty()) {
      for (const auto& v : variants) mark_failed(*v.record, "eager (the reference for validation) failed: " + eager_error);
    }
    return;
  }
  keep_run(Variant::named("eager").name(), eager.first);
  try {
    // Every run to come takes about as long as eager's first: where they would not fit in the
    // budget, eager's spread runs are the first thing left out.
    spread_cut = budget_s > 0 && spent_s() * (1 + kEagerSpreadRuns + others) > budget_s;
    if (!spread_cut) eager.again = validator.eager_spread_runs();
  } catch (const std::exception& e) {
    for (const auto& v : variants) mark_failed(*v.record, std::string("eager (the reference for validation) failed: ") + e.what());
    return;
  }
  const std::string spread_note =
      fmt::format("validation shortened by the case's time limit: against one eager run, eager's {} runs for its own "
                  "spread left out (validation may take {:.3g} s)",
                  kEagerSpreadRuns, budget_s);
  std::optional<EagerRuns> eager_without_randomness;
  bool eager_widened = false;
  // Each variant's run index is its place in the case (eager's is 1); the variants that replay a CUDA
  // graph are validated first, so that a time limit leaves out the others (static) before them.
  std::vector<std::pair<const VariantRecord*, int>> order;
  int place = 1;
  for (const auto& v : variants) {
    if (v.variant.is_eager_baseline()) {
      if (spread_cut) v.record->warnings.push_back(spread_note);
      continue;
    }
    order.emplace_back(&v, ++place);
  }
  std::stable_partition(order.begin(), order.end(), [](const auto& o) { return o.first->variant.needs_cuda_graph(); });
  for (const auto& [variant_record, index] : order) {
    const VariantRecord& v = *variant_record;
    if (budget_s > 0) {
      if (const double spent = spent_s(); spent >= budget_s) {
        // Not validated, so not timed: the record says why and what would give it time.
        mark_skipped(*v.record, fmt::format("not validated within the case's time limit: validation may take {:.3g} s "
                                            "and had taken {:.3g} s; a longer --max-time gives it time",
                                            budget_s, spent));
        continue;
      }
    }
    if (spread_cut) v.record->warnings.push_back(spread_note);
    try {
      auto checked = validator.validate(v.variant, index, eager);
      keep_run(v.variant.name(), checked.observed);
      ValidationResult& result = checked.result;
      note_capture_failures(*v.record, *checked.runner);
      const bool in_time = budget_s <= 0 || spent_s() < budget_s;
      if (any_rank(!result.ok && result.beyond_eager_spread) && !eager_widened && in_time) {
        // Eager's spread from more runs, once per case, then the same observations judged again.
        eager_widened = true;
        for (auto& again : validator.eager_spread_runs(kEagerSpreadWiderRuns)) eager.again.push_back(std::move(again));
        result = compare_observations(eager.first, checked.observed, instance.rtol(v.variant), instance.atol(v.variant),
                                      eager.again);
      }
      if (any_rank(!result.ok) && instance.has_randomness()) {
        // Every rank runs it (its steps pair up); a rank whose variant passed keeps that verdict.
        ValidationResult off =
            validate_without_randomness(instance, validator, v.variant, index, eager_without_randomness, result);
        if (!result.ok) result = off;
      }
      v.record->max_abs_error = result.max_abs_error;
      if (!result.note.empty()) v.record->validation_note = result.note;
      if (!result.ok) mark_failed(*v.record, result.message);
    } catch (const std::exception& e) {
      mark_failed(*v.record, e.what());
    }
  }
}

}  // namespace graphbench
