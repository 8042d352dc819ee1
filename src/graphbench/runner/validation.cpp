#include "graphbench/runner/validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace graphbench {

Observations observe_steps(VariantRunner& runner, int steps) {
  Observations out;
  for (int s = 0; s < steps; ++s) {
    runner.step();
    out.push_back(runner.observe());
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

void validate_against_eager(CaseInstance& instance, const std::vector<VariantRecord>& variants) {
  const int steps = instance.validation_steps();
  const Variant& eager_variant = Variant::named("eager");
  Observations eager;
  try {
    eager = observe_steps(*instance.make_runner(eager_variant, /*validation=*/true), steps);
  } catch (const std::exception& e) {
    for (const auto& v : variants) mark_failed(*v.record, std::string("eager (the reference for validation) failed: ") + e.what());
    return;
  }
  for (const auto& v : variants) {
    if (v.variant.is_eager_baseline()) continue;
    try {
      auto runner = instance.make_runner(v.variant, /*validation=*/true);
      const auto result = compare_observations(eager, observe_steps(*runner, steps), instance.rtol(v.variant),
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
