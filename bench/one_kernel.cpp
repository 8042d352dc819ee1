// one_kernel: a graph of one kernel (at::gelu on a small tensor) replayed through the engine and bare:
// the step costs what the host spends, so `graph:replay` and `reference+graph:replay` (a bare
// CUDAGraph::replay()) differ by exactly the engine's overhead.
//   eager, graph, graph:replay                          the engine: one gelu op
//   reference, reference+graph, reference+graph:replay  plain at::gelu, captured by hand
#include "common/case_helpers.h"
#include "common/case_workload.h"

#include "graphbench/engine/ops/elementwise.h"
#include "graphbench/engine/plan/builder.h"

namespace graphbench {

namespace {

class OneKernelCase final : public CaseInstance {
 public:
  OneKernelCase(const CaseSpec& spec, const CaseContext& context) : scope_(spec.scope) {
    const TensorSpec x_spec{bench::param_int_list(spec, "shape"), at::kFloat, context.device};
    input_ = at::randn(x_spec.shape, x_spec.options());
    Builder b("one_kernel");
    b.output("y", ops::gelu_native(b, b.input("x", x_spec)));
    program_ = b.build();
    cost_.bytes = 2.0 * static_cast<double>(x_spec.numel()) * bench::element_size(x_spec.dtype);
    cost_.flops = 0.0;
  }

  std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool) override {
    if (variant.is_reference()) {
      return bench::function_reference(variant, input_, [](const at::Tensor& x) { return at::gelu(x); });
    }
    return std::make_unique<EngineRunner>(
        bench::engine_config(variant, program_, Policy::inference(), scope_, {{"x", input_}}));
  }

  StepCost cost() const override { return cost_; }

  // Both sides run exactly one kernel per step; a second would make the comparison unfair.
  std::optional<int> expected_kernels_per_step(const Variant&) const override { return 1; }

 private:
  CaptureScope scope_;
  at::Tensor input_;
  std::shared_ptr<const Program> program_;
  StepCost cost_;
};

}  // namespace

GRAPHBENCH_REGISTER_CASE_WORKLOAD(OneKernelCase, one_kernel_descriptor, bench::Grad::kOff);

}  // namespace graphbench
