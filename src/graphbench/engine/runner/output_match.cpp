#include "graphbench/engine/runner/output_match.h"

#include <fmt/format.h>

#include <cmath>

namespace graphbench {

bool is_low_precision(at::ScalarType dtype) { return dtype == at::kHalf || dtype == at::kBFloat16; }

double rounding_step(at::ScalarType dtype, double magnitude) {
  if (!is_low_precision(dtype) || !(magnitude > 0.0) || !std::isfinite(magnitude)) return 0.0;
  const int mantissa_bits = dtype == at::kBFloat16 ? 7 : 10;  // explicit bits: eps = 2^-bits
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude = f 2^exponent, f in [0.5, 1): |x| in [2^(exponent-1), 2^exponent)
  return std::ldexp(1.0, exponent - 1 - mantissa_bits);
}

namespace {

double rmse(const at::Tensor& a, const at::Tensor& b) {
  return a.numel() == 0 ? 0.0 : (a - b).pow_(2).mean().sqrt().item<double>();
}

}  // namespace

OutputMatch match_output(const at::Tensor& expected, const at::Tensor& actual, double rtol, double atol,
                         const at::Tensor& fp64_reference) {
  OutputMatch m;
  const at::ScalarType dtype = expected.scalar_type();
  // float16 and bfloat16 differences are exact in float32, at half the memory of float64 (a
  // decoder's KV cache at batch 256 is a billion elements); everything else in float64.
  const at::ScalarType work = is_low_precision(dtype) ? at::kFloat : at::kDouble;
  // On the tensors' own device (moved to the host, a large case's params took seconds per
  // validation there), unless the comparison's few temporaries would crowd it: then on the host.
  const auto temporaries = static_cast<double>(expected.numel()) * static_cast<double>(c10::elementSize(work)) * 4.0;
  const at::Device where = expected.is_cuda() && temporaries <= kDeviceCompareBytes ? expected.device() : at::kCPU;
  const at::Tensor e = expected.to(where, work);
  // Out of place: .to() returns the tensor itself when it is already there, and the caller keeps it.
  const at::Tensor diff = (actual.to(where, work) - e).abs_();
  m.numel = diff.numel();
  if (m.numel == 0) return m;
  // NaN never passes: it is neither <= the bound nor a finite distance.
  const at::Tensor bound = e.abs().mul_(rtol).add_(atol);
  m.outside = (~(diff <= bound)).sum().item<std::int64_t>();
  const bool any_nan = diff.isnan().any().item<bool>();
  m.max_abs = any_nan ? INFINITY : diff.max().item<double>();
  m.max_ratio = any_nan ? INFINITY : (diff / bound).max().item<double>();
  if (m.outside == 0) return m;
  m.how = OutputMatch::How::kMismatch;
  if (any_nan || (!is_low_precision(dtype) && !fp64_reference.defined())) return m;
  m.magnitude = e.abs().masked_fill_(~e.isfinite(), 0.0).max().item<double>();
  m.step = rounding_step(dtype, m.magnitude);
  m.excess_rms = (diff - bound).clamp_min_(0.0).pow_(2).mean(at::kDouble).sqrt().item<double>();
  if (fp64_reference.defined()) {
    const at::Tensor r = fp64_reference.to(where, at::kDouble);
    m.reference_error = rmse(e.to(at::kDouble), r);
    m.variant_error = rmse(actual.to(where, at::kDouble), r);
    if (std::isfinite(m.variant_error) && m.variant_error <= kReferenceMultiplier * m.reference_error + atol / 10.0) {
      m.how = OutputMatch::How::kReference;
    }
    return m;
  }
  // Infinities in the same place are equal (diff NaN above otherwise); an infinite difference never passes.
  const bool elements_within = std::isfinite(m.max_abs) &&
                               (diff <= bound.clamp_min(kRoundingSteps * m.step)).all().item<bool>();
  if (m.step > 0.0 && elements_within && m.excess_rms <= kRmseSteps * m.step) m.how = OutputMatch::How::kRounding;
  return m;
}

std::string OutputMatch::describe() const {
  switch (how) {
    case How::kTolerances: return "";
    case How::kReference:
      return fmt::format("RMSE from the float64 reference {:.3g}, within {:g} times eager's {:.3g} (+ atol / 10)",
                         variant_error, kReferenceMultiplier, reference_error);
    case How::kRounding:
      return fmt::format("within {:g} rounding steps ({:.3g}) at the output's largest magnitude {:.3g}, the excess over "
                         "the tolerances {:.3g} RMS ({:.2f} steps): rounding",
                         kRoundingSteps, step, magnitude, excess_rms, step > 0.0 ? excess_rms / step : 0.0);
    case How::kMismatch:
      if (reference_error >= 0.0) {
        return fmt::format("RMSE from the float64 reference {:.3g}, more than {:g} times eager's {:.3g} (+ atol / 10)",
                           variant_error, kReferenceMultiplier, reference_error);
      }
      if (step > 0.0) {
        return fmt::format("{:.3g} rounding steps of the output's dtype at its largest magnitude {:.3g} (step {:.3g}; "
                           "{:g} allowed), the excess over the tolerances {:.3g} RMS ({:.2f} steps; {:g} allowed)",
                           max_abs / step, magnitude, step, kRoundingSteps, excess_rms, excess_rms / step, kRmseSteps);
      }
      return "";
  }
  return "";
}

}  // namespace graphbench
