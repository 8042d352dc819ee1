#include "graphbench/runner/validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace graphbench {

Observations observe_steps(VariantRunner& runner, int steps, const std::function<void(int, double)>& hook) {
  Observations out;
  for (int s = 0; s < steps; ++s) {
    if (hook) hook(s + 1, -1.0);
    const auto start = std::chrono::steady_clock::now();
    runner.step();
    out.push_back(runner.observe());  // copies the step's results
    if (hook) hook(s + 1, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return out;
}

ValidationResult compare_observations(const Observations& expected, const Observations& actual, double rtol, double atol) {
  ValidationResult result;
  for (std::size_t s = 0; s < expected.size(); ++s) {
    if (s >= actual.size() || actual[s].size() != expected[s].size()) {
      result.ok = false;
      result.message = fmt::format("step {}: observed {} values, eager observed {}", s + 1,
                                   s < actual.size() ? actual[s].size() : 0, expected[s].size());
      return result;
    }
    for (std::size_t i = 0; i < expected[s].size(); ++i) {
      const at::Tensor e = expected[s][i].to(at::kCPU, at::kDouble);
      const at::Tensor a = actual[s][i].to(at::kCPU, at::kDouble);
      if (e.sizes() != a.sizes()) {
        result.ok = false;
        result.message = fmt::format("step {}, value {}: shape {} differs from eager's {}", s + 1, i,
                                     fmt::join(a.sizes(), "x"), fmt::join(e.sizes(), "x"));
        return result;
      }
      const at::Tensor diff = (a - e).abs();
      const double max_diff = diff.numel() == 0 ? 0.0 : diff.max().item<double>();
      result.max_abs_error = std::max(result.max_abs_error, max_diff);
      // |a - e| <= atol + rtol * |e| everywhere (NaN never passes).
      const bool close = (diff <= atol + rtol * e.abs()).all().item<bool>();
      if (!close) {
        result.ok = false;
        result.message = fmt::format(
            "does not match eager at step {}, value {}: max abs error {:.3g} (rtol {:g}, atol {:g})", s + 1, i,
            max_diff, rtol, atol);
        return result;
      }
    }
  }
  return result;
}

void validate_against_eager(CaseInstance& instance, const std::vector<VariantRecord>& variants,
                            const ValidationObserver& observer) {
  const int steps = instance.validation_steps();
  const Variant& eager_variant = Variant::named("eager");
  int count = 1;
  for (const auto& v : variants) count += v.variant.is_eager_baseline() ? 0 : 1;
  int index = 0;
  auto hooks = [&](const Variant& variant) {
    ++index;
    return [&observer, name = variant.name(), index, count, steps](int step, double seconds) {
      if (observer) observer(ValidationStep{name, index, count, step, steps, seconds});
    };
  };
  Observations eager;
  try {
    eager = observe_steps(*instance.make_runner(eager_variant, /*validation=*/true), steps, hooks(eager_variant));
  } catch (const std::exception& e) {
    for (const auto& v : variants) mark_failed(*v.record, std::string("eager (the reference for validation) failed: ") + e.what());
    return;
  }
  for (const auto& v : variants) {
    if (v.variant.is_eager_baseline()) continue;
    try {
      auto runner = instance.make_runner(v.variant, /*validation=*/true);
      const auto result = compare_observations(eager, observe_steps(*runner, steps, hooks(v.variant)), instance.rtol(v.variant),
                                               instance.atol(v.variant));
      note_capture_failures(*v.record, *runner);
      v.record->max_abs_error = result.max_abs_error;
      if (!result.ok) mark_failed(*v.record, result.message);
    } catch (const std::exception& e) {
      mark_failed(*v.record, e.what());
    }
  }
}

}  // namespace graphbench
