#include "graphbench/engine/ops/script.h"

#include "graphbench/core/base/errors.h"

#include <torch/csrc/jit/api/compilation_unit.h>
#include <torch/jit.h>
#include <torch/script.h>

#include <fmt/format.h>

namespace graphbench::ops {

const char* const kGeluScriptSource =
    "def gelu(x):\n"
    "    return x * 0.5 * (1.0 + torch.erf(x / 1.41421))\n";

namespace {

class ScriptCallOp final : public Op {
 public:
  ScriptCallOp(std::string source, std::string function, SpecInference infer)
      : source_(std::move(source)), function_name_(std::move(function)), infer_(std::move(infer)) {
    try {
      unit_ = torch::jit::compile(source_);
      function_ = &unit_->get_function(function_name_);
    } catch (const std::exception& e) {
      throw EngineError(fmt::format("TorchScript function {} does not compile: {}", function_name_, e.what()));
    }
  }
  std::string signature() const override { return fmt::format("script({})", function_name_); }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override { return infer_(in); }
  void run(OpIO& io) const override {
    std::vector<c10::IValue> args;
    args.reserve(io.num_inputs());
    for (std::size_t i = 0; i < io.num_inputs(); ++i) args.emplace_back(io.in(i));
    io.out(0) = (*function_)(std::move(args)).toTensor();
  }

 private:
  std::string source_;
  std::string function_name_;
  SpecInference infer_;
  std::shared_ptr<torch::jit::CompilationUnit> unit_;
  torch::jit::Function* function_ = nullptr;
};

}  // namespace

ValueId script_call(Builder& b, const std::string& source, const std::string& function,
                    const std::vector<ValueId>& inputs, SpecInference infer) {
  return b.add1(std::make_shared<ScriptCallOp>(source, function, std::move(infer)), inputs);
}

}  // namespace graphbench::ops
