// gelu: the blog's GELU, y = x * 0.5 * (1.0 + erf(x / 1.41421)), inference.
//   engine variants     five elementwise ops (five kernels eagerly), eager / static / graph
//   jit, jit+graph      TorchScript from source (its fuser makes one kernel), eagerly and captured
//   native(+graph)      at::gelu, ATen's one-kernel GELU: the floor of any GELU
//   reference(+graph)   plain LibTorch as the blog writes it, at::cuda::CUDAGraph around it
// Every graph variant also runs as ":replay", the input already in place.
#include "common/case_helpers.h"
#include "common/case_workload.h"
#include "common/op_tags.h"

#include "graphbench/engine/ops/elementwise.h"
#include "graphbench/engine/ops/script.h"
#include "graphbench/engine/plan/builder.h"

namespace graphbench {

namespace {

// The blog's function, in plain LibTorch.
at::Tensor gelu_reference(const at::Tensor& x) { return x * 0.5 * (1.0 + at::erf(x / 1.41421)); }

class GeluCase final : public CaseInstance {
 public:
  GeluCase(const CaseSpec& spec, const CaseContext& context) : scope_(spec.scope) {
    const TensorSpec x_spec{bench::param_int_list(spec, "shape"), dtype_from_name(spec.dtype), context.device};
    input_ = at::randn(x_spec.shape, x_spec.options());

    // One module, one layer: every capture scope captures the five ops as one graph.
    Builder engine_builder("gelu");
    ValueId engine_x = engine_builder.input("x", x_spec);
    engine_builder.set_tag(bench::module_tag("gelu", 0));
    engine_builder.output("y", ops::gelu_formula(engine_builder, engine_x));
    engine_program_ = engine_builder.build();

    Builder jit_builder("gelu_jit");
    ValueId x = jit_builder.input("x", x_spec);
    jit_builder.output("y", ops::script_call(jit_builder, ops::kGeluScriptSource, "gelu", {x},
                                             [](const std::vector<TensorSpec>& in) { return in; }));
    jit_program_ = jit_builder.build();

    Builder native_builder("gelu_native");
    native_builder.output("y", ops::gelu_native(native_builder, native_builder.input("x", x_spec)));
    native_program_ = native_builder.build();

    const double elements = static_cast<double>(x_spec.numel());
    // Napkin math: read x once and write y once; five elementwise operations per element.
    cost_.bytes = 2.0 * elements * bench::element_size(x_spec.dtype);
    cost_.flops = 5.0 * elements;
    dtype_ = x_spec.dtype;
  }

  std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool) override {
    if (variant.is_reference()) return bench::function_reference(variant, input_, gelu_reference);
    const auto& program = variant.is_script() ? jit_program_ : variant.is_native() ? native_program_ : engine_program_;
    EngineRunnerConfig config = bench::engine_config(variant, program, Policy::inference(), scope_, {{"x", input_}});
    // TorchScript profiles its first runs and fuses afterwards: warm it up longer before capture.
    config.options.warmup_steps = variant.is_script() ? 5 : 3;
    return std::make_unique<EngineRunner>(std::move(config));
  }

  StepCost cost() const override { return cost_; }

  // TorchScript fuses the five ops into one kernel, and at::gelu is one.
  std::optional<int> expected_kernels_per_step(const Variant& variant) const override {
    if (variant.is_script() || variant.is_native()) return 1;
    return std::nullopt;
  }

  double rtol(const Variant& variant) const override {
    if (dtype_ != at::kFloat) return 1e-2;
    return CaseInstance::rtol(variant);
  }
  double atol(const Variant& variant) const override {
    if (dtype_ != at::kFloat) return 1e-2;
    return CaseInstance::atol(variant);
  }

 private:
  CaptureScope scope_;
  at::Tensor input_;
  std::shared_ptr<const Program> engine_program_;
  std::shared_ptr<const Program> jit_program_;
  std::shared_ptr<const Program> native_program_;
  StepCost cost_;
  at::ScalarType dtype_ = at::kFloat;
};

}  // namespace

GRAPHBENCH_REGISTER_CASE_WORKLOAD(GeluCase, gelu_descriptor, bench::Grad::kOff);

}  // namespace graphbench
