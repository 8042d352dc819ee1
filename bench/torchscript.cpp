// torchscript: your own model, a TorchScript file (torch::jit::load), as one op of an engine program.
//   mode inference  forward under no_grad; the weights stay inside the module
//   mode train      a whole training step: forward, the spec's loss, autograd backward, the
//                   engine's SGD or Adam updating the trainable parameters in place; one graph
//   pieces          a model split by scripts/export_model.py --scope: one tagged op per piece
//                   (TorchScript, or in inference an AOTInductor package), wired as the case says,
//                   the chain checked against the whole model first; in mode train each op takes
//                   its piece's parameters ("piece<K>.<name>"), then loss, backward and optimizer
// Variants eager, static and graph; a failed capture is recorded and the variant runs eagerly.
#include "common/case_helpers.h"
#include "common/case_workload.h"
#include "common/op_tags.h"
#include "models/model_case.h"
#include "models/model_instance.h"
#include "models/script_model.h"
#include "models/script_pieces.h"

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/engine/exec/warm_up.h"
#include "graphbench/engine/ops/aoti_package.h"
#include "graphbench/engine/ops/autograd.h"
#include "graphbench/engine/ops/nn.h"
#include "graphbench/engine/ops/optimizers.h"
#include "graphbench/engine/ops/script_module.h"
#include "graphbench/engine/plan/builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <utility>

namespace graphbench {

namespace {

// While alive, the CPU's and the device's generators draw from `seed`: dropout alike in chain and whole.
class SeededDraws : NonCopyable {
 public:
  SeededDraws(at::Device device, std::uint64_t seed) : saved_({at::Device(at::kCPU), device}), seed_(seed) { reseed(); }
  ~SeededDraws() { saved_.restore(); }
  void reseed() { saved_.seed(seed_); }

 private:
  SavedGenerators saved_;
  std::uint64_t seed_;
};

// Calls before capture and validation: TorchScript's profiling executor specialises over its first.
constexpr int kWarmupSteps = 5;

class TorchScriptCase final : public bench::ModelInstance {
 public:
  TorchScriptCase(const CaseSpec& spec, const CaseContext& context) : ModelInstance(spec, context) {
    read_inputs();
    torch::jit::Module module = bench::load_script_model(spec, device_);
    // Without read_bytes, the roofline is the module's parameters and buffers, and a decoding
    // step's whole KV cache: the state inputs count with the weights.
    if (read_bytes_ <= 0.0) read_bytes_ = bench::module_bytes(module) + bench::state_bytes(declared_);
    module.train(train_);
    if (train_ && !bench::has_pieces(spec_)) dropout_modules_ = bench::dropout_modules(module);
    if (bench::has_pieces(spec_)) {
      program_ = build_pieces_program(module);
    } else {
      program_ = train_ ? build_train_program(module) : build_inference_program(module);
    }
  }

  std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool validation) override {
    // Every validation runner starts from the same random state, so that a model that draws random
    // numbers (dropout in training mode) draws the same ones under every executor.
    if (validation) at::manual_seed(seed_);
    // TorchScript's profiling executor specialises the model over its first runs: settle it first.
    return engine_runner(variant, kWarmupSteps);
  }

  // The profiling executor runs the model unoptimised in its first calls; on CUDA the optimised
  // graph's dropout (a differentiable graph's) draws other random numbers than aten::dropout.
  int settle_steps() const override { return kWarmupSteps; }
  bool has_randomness() const override { return !dropout_modules_.empty(); }
  void set_randomness(bool on) override {
    for (auto& m : dropout_modules_) m.train(on);
  }
  std::string randomness_description() const override {
    return fmt::format("its {} dropout module{}", dropout_modules_.size(), dropout_modules_.size() == 1 ? "" : "s");
  }
  std::vector<std::string> setup_notes() const override { return setup_notes_; }

 private:
  ops::ScriptModuleCall module_call(const torch::jit::Module& module) const {
    ops::ScriptModuleCall call;
    call.module = module;
    call.example_inputs = inputs_;
    call.label = bench::param_string(spec_, "path");
    return call;
  }

  std::shared_ptr<const Program> build_inference_program(const torch::jit::Module& module) {
    return ModelInstance::build_inference_program(
        "torchscript_forward",
        [&](Builder& b, const std::vector<ValueId>& inputs) { return ops::script_module_call(b, module_call(module), inputs, {}); });
  }

  // One tagged op per piece. The chain runs once first (each op is built at its piece's inputs) and
  // must equal the whole model; in mode train both in train mode, from one random state.
  std::shared_ptr<const Program> build_pieces_program(torch::jit::Module& whole) {
    const bench::ScriptPieces pieces = bench::read_pieces(spec_);
    std::vector<bench::LoadedPiece> loaded = bench::load_pieces(spec_, pieces, device_, train_);
    for (auto& piece : loaded) {
      if (piece.is_package()) continue;  // an AOTInductor piece: inference, nothing to switch
      piece.module.train(train_);
      if (train_) {
        for (auto& d : bench::dropout_modules(piece.module)) dropout_modules_.push_back(d);
      }
    }
    bench::ChainRun chain;
    std::vector<at::Tensor> expected;
    {
      SeededDraws draws(device_, seed_);
      chain = bench::run_chain(spec_, pieces, loaded, inputs_);
      draws.reseed();
      at::NoGradGuard no_grad;
      expected = ops::flatten_tensors(whole.forward(std::vector<c10::IValue>(inputs_.begin(), inputs_.end())));
    }
    // Inductor's pieces run kernels of their own: beyond the tolerances, both judged by float64.
    const bool compiled = std::any_of(loaded.begin(), loaded.end(), [](const auto& p) { return p.is_package(); });
    std::function<std::vector<at::Tensor>()> reference;
    if (compiled) reference = [&] { return float64_outputs(whole); };
    const std::string passed_how = bench::require_chain_equals_whole(
        chain, pieces.pieces.size(), expected, tolerance_.rtol, tolerance_.atol,
        "model " + bench::param_string(spec_, "path"), reference);
    if (!passed_how.empty()) setup_notes_.push_back(passed_how);
    Builder b(train_ ? "torchscript_pieces_train" : "torchscript_pieces");
    bench::PieceValues values(bench::declare_model_inputs(b, inputs_, feed_));
    std::vector<ValueId> params;  // mode train: every piece's, in piece order
    for (std::size_t k = 0; k < pieces.pieces.size(); ++k) {
      const bench::ScriptPiece& piece = pieces.pieces[k];
      const std::vector<ValueId> args = values.inputs_of(piece);
      if (loaded[k].is_package()) {  // Inductor's kernels, compiled ahead of time (inference)
        b.set_tag(piece.tag);
        values.add_piece_outputs(ops::aoti_call(b, loaded[k].package, chain.piece_inputs[k], piece.path, args));
        continue;
      }
      ops::ScriptModuleCall call;
      call.module = loaded[k].module;
      call.example_inputs = chain.piece_inputs[k];
      call.label = piece.path;
      std::vector<ValueId> piece_params;
      if (train_) {
        const TrainableParams trainable = declare_trainable_params(b, loaded[k].module, fmt::format("piece{}.", k));
        call.param_names = trainable.module_names;
        piece_params = trainable.values;
        params.insert(params.end(), piece_params.begin(), piece_params.end());
      }
      b.set_tag(piece.tag);
      values.add_piece_outputs(ops::script_module_call(b, call, args, piece_params));
    }
    b.clear_tag();
    if (train_) {
      require_trainable_params();
      add_loss_backward_and_update(b, values.at(pieces.outputs.at(0)), params);
      return b.build();
    }
    for (std::size_t i = 0; i < pieces.outputs.size(); ++i) b.output(fmt::format("output{}", i), values.at(pieces.outputs[i]));
    return b.build();
  }

  // The whole model's outputs in float64 (a copy of it, the inputs cast); empty where it does not run
  // so or leaves another floating type.
  std::vector<at::Tensor> float64_outputs(const torch::jit::Module& whole) const {
    try {
      torch::jit::Module copy = whole.clone();
      copy.to(at::kDouble);
      std::vector<c10::IValue> args;
      for (const auto& t : inputs_) args.emplace_back(t.is_floating_point() ? t.to(at::kDouble) : t);
      at::NoGradGuard no_grad;
      std::vector<at::Tensor> out = ops::flatten_tensors(copy.forward(args));
      for (const auto& t : out) {
        if (t.is_floating_point() && t.scalar_type() != at::kDouble) return {};
      }
      return out;
    } catch (const std::exception&) {
      return {};
    }
  }

  // A module's trainable parameters as program params `prefix` + name, starting values in initial_.
  struct TrainableParams {
    std::vector<std::string> module_names;  // what the module calls them (ScriptModuleCall::param_names)
    std::vector<ValueId> values;
  };
  TrainableParams declare_trainable_params(Builder& b, const torch::jit::Module& module, const std::string& prefix) {
    TrainableParams out;
    for (const auto& p : module.named_parameters(/*recurse=*/true)) {
      if (!p.value.requires_grad()) continue;
      const std::string name = prefix + p.name;
      param_names_.push_back(name);
      initial_.set(name, p.value.detach().clone());
      out.module_names.push_back(p.name);
      out.values.push_back(b.param(name, spec_of(initial_.at(name))));
    }
    return out;
  }

  void require_trainable_params() const {
    if (param_names_.empty()) {
      bench::fail_case_field(spec_, "path", fmt::format("{}: the model has no trainable parameter (case {})",
                                                        bench::param_string(spec_, "path"), spec_.name));
    }
  }

  std::shared_ptr<const Program> build_train_program(const torch::jit::Module& module) {
    Builder b("torchscript_train");
    const std::vector<ValueId> inputs = bench::declare_model_inputs(b, inputs_, feed_);
    const TrainableParams trainable = declare_trainable_params(b, module, "");
    require_trainable_params();
    ops::ScriptModuleCall call = module_call(module);
    call.param_names = trainable.module_names;
    const auto outputs = ops::script_module_call(b, std::move(call), inputs, trainable.values);
    add_loss_backward_and_update(b, outputs.at(0), trainable.values);
    return b.build();
  }

  // The spec's loss of `output`, backward over `params`, the optimizer's update of them; the loss is
  // the program's output.
  void add_loss_backward_and_update(Builder& b, ValueId output, const std::vector<ValueId>& params) {
    const ValueId loss = add_loss(b, output);
    const auto grads = ops::backward(b, loss, params);
    // The optimizer's update, tagged so that the fwd-bwd scope (capture_scope.h) runs it eagerly.
    b.set_tag(bench::optimizer_tag());
    ops::optimizer_step(b, params, grads,
                        {bench::param_string(spec_, "optimizer"), bench::param_number(spec_, "lr"),
                         bench::param_number(spec_, "momentum"), bench::param_number(spec_, "weight_decay")});
    b.clear_tag();
    b.output("loss", loss);
  }

  // The spec's loss of the model's first output; targets are inputs of the program, drawn once.
  ValueId add_loss(Builder& b, ValueId output) {
    const std::string loss = bench::param_string(spec_, "loss");
    const TensorSpec& y = b.spec(output);
    if (loss == "mean") return ops::mean(b, output);
    if (loss == "mse") {
      feed_["target"] = at::randn(y.shape, y.options());
      return ops::mse_loss(b, output, b.input("target", y));
    }
    if (y.shape.size() != 2) {
      bench::fail_case_field(spec_, "loss",
                             fmt::format("cross_entropy needs the model's first output to be [N, C] scores, it is {} "
                                         "(case {})",
                                         to_string(y), spec_.name));
    }
    const TensorSpec target{{y.shape[0]}, at::kLong, y.device};
    feed_["target"] = at::randint(0, y.shape[1], target.shape, target.options());
    return ops::nll_loss(b, ops::log_softmax(b, output, 1), b.input("target", target));
  }

  std::vector<torch::jit::Module> dropout_modules_;  // mode train: the model's dropout modules
  std::vector<std::string> setup_notes_;              // how a chain of compiled pieces passed its check
};

class TorchScriptWorkload final : public bench::CaseWorkload<TorchScriptCase> {
 public:
  using CaseWorkload::CaseWorkload;
  void preflight(const CaseSpec& spec) const override {
    bench::load_script_model(spec, at::kCPU);
    // AOTInductor pieces are compiled for their device: here only their files are checked.
    if (bench::has_pieces(spec)) {
      bench::load_pieces(spec, bench::read_pieces(spec), at::kCPU, /*train=*/false, /*load_packages=*/false);
    }
  }
};

}  // namespace

GRAPHBENCH_REGISTER_CASE_WORKLOAD_AS(TorchScriptWorkload, torchscript_descriptor, bench::Grad::kOn);

}  // namespace graphbench
