// The one rule for whether two outputs of the same computation agree: a variant against eager
// (engine/runner/validation.h), the chain of a model's pieces against the whole model
// (bench/models/script_pieces.cpp; the exporter's chain check mirrors this rule in
// Python, python/graphbench/output_match.py), and a data-parallel replica against one process
// (parallel/cases/replica_checks.h).
//
// A verdict must hold both ways, whatever eager's own determinism: a correct capture never fails,
// a wrong one never passes (docs/measuring.md, "Validation before timing").
//   1. Tolerances: |a - e| <= atol + rtol |e| at every element: the outputs agree.
//   2. An fp64 reference r given: PyTorch's own benchmark rule (torch/_dynamo/utils.py same()):
//      RMSE(a, r) <= 3 RMSE(e, r) + atol / 10. The variant may be three times as far from the
//      exact result as eager is. Given for float16 and bfloat16 outputs, and for float32 ones
//      where the variant is compiled code of its own (Inductor's pieces against the whole model:
//      other kernels sum in another order, and an output near zero that sums large terms differs
//      by more than rtol of itself).
//   3. No reference (float16 and bfloat16 outputs): rounding. One rounding step of the output's
//      dtype at its largest magnitude m, step = eps 2^floor(log2 m) (bfloat16 eps 2^-7, float16
//      2^-10), moves every value it was summed into by as much (a decoder's logits come out of
//      one long dot product each). The outputs agree when every element is within
//      max(atol + rtol |e|, kRoundingSteps steps) and the root mean square of what the tolerances
//      do not explain, max(0, |a - e| - (atol + rtol |e|)), is at most kRmseSteps steps. A
//      correct capture that rounds otherwise moves some elements a step or two (a bfloat16
//      decoder's graph: ~900 of 512000 logits, up to one step); a stale input, a missed cache
//      update or pieces run in the wrong order move most elements by far more.
//   Otherwise, and wherever a NaN is, they do not agree. float32 and float64 outputs without a
//   reference are judged by the tolerances alone here (validation.h adds its isolated-rounding
//   and eager-spread rules for them: an optimizer that normalises tiny gradients grows last-bit
//   differences).
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <string>

namespace graphbench {

// The most device memory a comparison's temporaries may take (match_output compares on the
// tensors' device up to it, on the host beyond: a decoder's KV cache at batch 256 is a billion
// elements).
inline constexpr double kDeviceCompareBytes = 2.0 * 1024 * 1024 * 1024;

inline constexpr double kRoundingSteps = 4.0;        // per element, at the output's largest magnitude
inline constexpr double kRmseSteps = 1.0;            // root mean square of the excess over the tolerances
inline constexpr double kReferenceMultiplier = 3.0;  // torch/_dynamo/utils.py same(), float16 and bfloat16

// The spacing of `dtype`'s numbers at `magnitude` (|x| in [2^k, 2^(k+1)): eps 2^k); 0 for dtypes
// that are not float16 or bfloat16, and for a magnitude of 0 or not finite.
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

// `expected` (eager, the whole model, one process) and `actual` of the same shape (not checked
// here); `fp64_reference` (optional, same shape): the same computation in float64.
OutputMatch match_output(const at::Tensor& expected, const at::Tensor& actual, double rtol, double atol,
                         const at::Tensor& fp64_reference = at::Tensor());

}  // namespace graphbench
