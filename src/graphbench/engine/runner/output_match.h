// The one rule for whether two outputs of the same computation agree: a variant against eager
// (validation.h), a model's chain of pieces against the whole model (bench/models/script_pieces.cpp;
// mirrored in python/graphbench/output_match.py), a data-parallel replica against one process. A
// correct capture must never fail and a wrong one never pass (docs/measuring.md, "Validation").
//   1. Tolerances: |a - e| <= atol + rtol |e| at every element.
//   2. With an fp64 reference r, PyTorch's benchmark rule (torch/_dynamo/utils.py same()):
//      RMSE(a, r) <= 3 RMSE(e, r) + atol / 10. Given for float16/bfloat16 outputs, and for float32
//      ones of compiled code of its own (Inductor's pieces sum in another order).
//   3. float16/bfloat16 without a reference: rounding. One step of the dtype at the largest magnitude
//      m (eps 2^floor(log2 m)) moves every value summed into it; every element within
//      max(atol + rtol |e|, kRoundingSteps steps) and the RMS of the excess over the tolerances at
//      most kRmseSteps steps. A correct capture moves some elements a step or two; a stale input or
//      a missed cache update moves most by far more.
//   Otherwise, and wherever a NaN is, they do not agree (validation.h adds rules for float32).
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <string>

namespace graphbench {

// The most device memory a comparison's temporaries may take; beyond it, on the host.
inline constexpr double kDeviceCompareBytes = 2.0 * 1024 * 1024 * 1024;

inline constexpr double kRoundingSteps = 4.0;        // per element, at the output's largest magnitude
inline constexpr double kRmseSteps = 1.0;            // root mean square of the excess over the tolerances
inline constexpr double kReferenceMultiplier = 3.0;  // torch/_dynamo/utils.py same(), float16 and bfloat16

// The spacing of `dtype`'s numbers at `magnitude` (eps 2^k); 0 but for float16/bfloat16 and finite m > 0.
double rounding_step(at::ScalarType dtype, double magnitude);

// Whether the rounding rule (3) applies: float16 and bfloat16.
bool is_low_precision(at::ScalarType dtype);

struct OutputMatch {
  enum class How { kTolerances, kReference, kRounding, kMismatch };
  How how = How::kTolerances;
  bool ok() const { return how != How::kMismatch; }
  std::int64_t numel = 0;
  std::int64_t outside = 0;  // elements beyond atol + rtol |e| (NaN counts)
  double max_abs = 0.0;      // the largest |a - e| (NaN: infinity)
  double max_ratio = 0.0;    // the largest |a - e| / (atol + rtol |e|) (NaN: infinity)
  double excess_rms = 0.0;   // root mean square of max(0, |a - e| - (atol + rtol |e|))
  double magnitude = 0.0;    // the largest finite |e|
  double step = 0.0;         // rounding_step(dtype, magnitude); 0 for float32 and float64
  double reference_error = -1.0, variant_error = -1.0;  // RMSE(e, r) and RMSE(a, r) with a reference; else -1
  // Why the outputs agree beyond the tolerances, or why they do not ("" within the tolerances).
  std::string describe() const;
};

// `expected` and `actual` of one shape (not checked); `fp64_reference`: the computation in float64.
OutputMatch match_output(const at::Tensor& expected, const at::Tensor& actual, double rtol, double atol,
                         const at::Tensor& fp64_reference = at::Tensor());

}  // namespace graphbench
