// Elementwise ops, computing into a fixed output where given one (`_out` kernels): nothing allocated.
#pragma once

#include "graphbench/engine/plan/builder.h"

namespace graphbench::ops {

ValueId mul(Builder& b, ValueId x, ValueId y);
ValueId mul_scalar(Builder& b, ValueId x, double c);
ValueId div_scalar(Builder& b, ValueId x, double c);
ValueId add_scalar(Builder& b, ValueId x, double c);
ValueId erf(Builder& b, ValueId x);
ValueId relu(Builder& b, ValueId x);

// The blog's GELU, op by op as eager PyTorch runs it (5 kernels):
//   y = x * 0.5 * (1.0 + erf(x / 1.41421))
ValueId gelu_formula(Builder& b, ValueId x);

// at::gelu (the exact, erf form): one kernel, the floor of what any GELU costs on the device.
ValueId gelu_native(Builder& b, ValueId x);

}  // namespace graphbench::ops
