// "grad_sm_carveout": where the products can leave multiprocessors to the all-reduce, and that a
// scope sets LibTorch's carveout and cuBLASLt and puts back what was there ([cuda]: on a GPU).
#include "graphbench/parallel/matmul_sm_carveout.h"
#include "support/catch.h"
#include "support/cuda_skip.h"

#include <ATen/ATen.h>
#include <fmt/format.h>
#include <torch/version.h>

#include <cstdint>
#include <optional>
#include <string>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/Context.h>
#include <ATen/cuda/CUDAContext.h>
#endif

using graphbench::parallel::matmul_sm_carveout_unavailable;
using graphbench::parallel::ScopedMatmulSmCarveout;

TEST_CASE("the products' SM carveout needs a GPU", "[dist]") {
  CHECK(matmul_sm_carveout_unavailable(at::Device(at::kCPU), 16) ==
        "leaving 16 multiprocessors to the all-reduce needs a GPU; this run is on the cpu");
#ifndef GRAPHBENCH_WITH_CUDA
  CHECK(matmul_sm_carveout_unavailable(at::Device(at::kCUDA, 0), 8) ==
        std::string("leaving 8 multiprocessors to the all-reduce needs LibTorch 2.7 or newer built with CUDA; "
                    "this is LibTorch ") +
            TORCH_VERSION);
#endif
}

TEST_CASE("a carveout scope targets cuBLASLt at fewer multiprocessors and restores the settings", "[dist][cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
#if defined(GRAPHBENCH_WITH_CUDA) && (TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 7))
  const at::Device gpu(at::kCUDA, 0);
  const int count = at::cuda::getDeviceProperties(0)->multiProcessorCount;
  CHECK(matmul_sm_carveout_unavailable(gpu, 16).empty());
  CHECK(matmul_sm_carveout_unavailable(gpu, count) ==
        fmt::format("the GPU has {} multiprocessors: at most {} can be left to the all-reduce, not {}", count,
                    count - 1, count));
  at::Context& context = at::globalContext();
  const at::BlasBackend before = context.blasPreferredBackend();
  REQUIRE_FALSE(context._SMCarveout_EXPERIMENTAL().has_value());
  const at::Tensor a = at::randn({640, 256}, at::TensorOptions().device(gpu));
  const at::Tensor b = at::randn({640, 512}, at::TensorOptions().device(gpu));
  const at::Tensor plain = a.t().mm(b);
  {
    const ScopedMatmulSmCarveout scope(16);
    CHECK(context._SMCarveout_EXPERIMENTAL() == std::optional<int32_t>(16));
    CHECK(context.blasPreferredBackend() == at::BlasBackend::Cublaslt);
    // Another kernel, the same product.
    CHECK(at::allclose(a.t().mm(b), plain, 1e-4, 1e-4));
    {
      const ScopedMatmulSmCarveout none(0);  // nothing changes
      CHECK(context._SMCarveout_EXPERIMENTAL() == std::optional<int32_t>(16));
    }
  }
  CHECK_FALSE(context._SMCarveout_EXPERIMENTAL().has_value());
  CHECK(context.blasPreferredBackend() == before);
#else
  GRAPHBENCH_SKIP("this LibTorch has no matmul SM carveout (it came with 2.7)");
#endif
}
