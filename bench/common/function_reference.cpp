#include "common/function_reference.h"

namespace graphbench::bench {

std::unique_ptr<VariantRunner> function_reference(const Variant& variant, const at::Tensor& input,
                                                  std::function<at::Tensor(const at::Tensor&)> f) {
  auto static_input = std::make_shared<at::Tensor>(at::empty_like(input));
  auto output = std::make_shared<at::Tensor>();
  ReferenceStep step;
  step.copy_inputs = [static_input, input] { static_input->copy_(input); };
  step.step = [static_input, output, f = std::move(f)] { *output = f(*static_input); };
  step.observe = [output] { return std::vector<at::Tensor>{output->clone()}; };
  step.undo_warmup = [] {};
  return std::make_unique<ReferenceRunner>(std::move(step), variant.needs_cuda_graph(), /*warmup_iterations=*/3,
                                           variant.input_method());
}

}  // namespace graphbench::bench
