// One allocation for a binding's fixed buffers. Every buffer a binding allocates (inputs and
// values computed into fixed outputs) is carved out of a single block per device, each at a
// 512-byte boundary, in slot order.
//
// Why: the steps of a captured graph then touch a few contiguous pages instead of buffers
// scattered over the caching allocator's segments. Measured on an H200, a graph of five small
// elementwise kernels (GELU written out, 600 kB tensors) replays about 4% faster on buffers laid
// out this way than on the same buffers allocated one by one (docs/measuring.md).
//
// Each buffer is a tensor of its own on the shared storage, not a view: its version counter is
// its own, so autograd sees no in-place change of a saved tensor when another slot is written.
// The storage cannot be resized: an op that tried to grow its output (a wrong shape inference)
// fails instead of moving every buffer of the arena.
#pragma once

#include "graphbench/plan/tensor_spec.h"

#include <ATen/ATen.h>

#include <vector>

namespace graphbench {

// Byte alignment of each buffer in the arena (the CUDA caching allocator's own rounding).
constexpr std::int64_t kSlotAlignment = 512;

// Tensors for `specs`, in order, sharing one block of memory per device.
std::vector<at::Tensor> allocate_arena(const std::vector<TensorSpec>& specs);

}  // namespace graphbench
