// Matrix products that leave multiprocessors to the all-reduce beside them ("grad_sm_carveout").
// A product whose blocks fill every multiprocessor, launched beside an all-reduce that holds some of
// them, runs its last blocks as one more wave: the two take turns instead of overlapping.
// LibTorch's experimental matmul SM carveout makes the products target fewer multiprocessors;
// only cuBLASLt honours it, so while a scope is open the products also go to cuBLASLt. Both are
// process-wide settings (the autograd engine's device threads read them too); the scope restores
// what was set before. docs/distributed.md, "What the products leave to the all-reduce".
#pragma once

#include <ATen/core/Tensor.h>

#include <optional>
#include <string>

namespace graphbench::parallel {

// Why `multiprocessors` cannot be carved out on `device` ("" when it can): the device is not a
// GPU, this LibTorch has no carveout (it came with 2.7) or no CUDA, or the GPU has no more
// multiprocessors than that.
std::string matmul_sm_carveout_unavailable(const at::Device& device, int multiprocessors);

// The products of the current thread and of the autograd engine target all but `multiprocessors`
// of the GPU's multiprocessors until the scope ends (0: nothing changes).
class ScopedMatmulSmCarveout {
 public:
  explicit ScopedMatmulSmCarveout(int multiprocessors);
  ~ScopedMatmulSmCarveout();
  ScopedMatmulSmCarveout(const ScopedMatmulSmCarveout&) = delete;
  ScopedMatmulSmCarveout& operator=(const ScopedMatmulSmCarveout&) = delete;

 private:
  bool active_ = false;
  int previous_backend_ = 0;                // at::BlasBackend, as an int: not in LibTorch 1.13
  std::optional<int> previous_carveout_;
};

}  // namespace graphbench::parallel
