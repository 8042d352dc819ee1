#include "catalog/workloads.h"

#include "catalog/branch_tree.h"
#include "catalog/model_params.h"
#include "catalog/param_decls.h"
#include "catalog/piece_params.h"
#include "catalog/sweep_axes.h"

#include <fmt/format.h>

#include <algorithm>

namespace graphbench {

using bench::choice_param;
using bench::int_param;
using bench::number_param;

namespace {

std::optional<ParamProblem> check_torchscript_params(const nlohmann::json& params, const std::string& mode) {
  if (auto problem = bench::check_model_inputs(params)) return problem;
  if (auto problem = bench::check_pieces(params)) return problem;
  if (mode == "train") {
    if (auto problem = bench::check_no_state_inputs(params, "mode train")) return problem;
  }
  if (params.contains("pieces")) {
    if (auto problem = bench::check_no_state_inputs(params, "a chain of pieces")) return problem;
  }
  if (mode == "train" && !params.contains("loss")) {
    return ParamProblem{"", "missing required key \"loss\" (mode train: mean, mse or cross_entropy)"};
  }
  if (mode != "train" && params.contains("loss")) {
    return ParamProblem{"/loss", fmt::format("expected no loss in mode {} (a loss applies to mode train), got {}", mode,
                                             params.at("loss").dump())};
  }
  return std::nullopt;
}

ParamDecl state_file_param() {
  return bench::optional_param("state", ParamType::kPath,
                               "mode train: the training step's initial state (params, buffers, optimizer state), the "
                               "<stem>.state.pt that scripts/export_model.py writes beside the package, relative to "
                               "the suite file");
}

std::optional<ParamProblem> check_aoti_params(const nlohmann::json& params, const std::string& mode) {
  if (auto problem = bench::check_model_inputs(params)) return problem;
  if (mode == "train") {
    if (auto problem = bench::check_no_state_inputs(params, "mode train")) return problem;
  }
  if (mode == "train" && !params.contains("state")) {
    return ParamProblem{"", "missing required key \"state\" (mode train: the training step's initial state, the "
                            "<stem>.state.pt written beside the package by scripts/export_model.py --mode train)"};
  }
  if (mode != "train" && params.contains("state")) {
    return ParamProblem{"/state", fmt::format("expected no state in mode {} (a state file belongs to a training step's "
                                              "package, mode train), got {}",
                                              mode, params.at("state").dump())};
  }
  return std::nullopt;
}

}  // namespace

WorkloadDescriptor gelu_descriptor() {
  WorkloadDescriptor d = describe_workload("gelu", {"inference"}, {"benchmark"},
                                          "GELU as five elementwise ops, inference (PyTorch 1.10 CUDA Graphs blog); "
                                          "TorchScript and at::gelu beside it");
  // Every variant but the conditional ones: GELU has no branch for a conditional node to take.
  for (const Variant& v : Variant::all()) {
    if (v.source() != StepSource::kConditional) d.variants.push_back(v);
  }
  d.dtypes = {"float32", "float16", "bfloat16"};
  d.params = {bench::typed_param("shape", ParamType::kPositiveIntList, nullptr, "input shape, e.g. [1, 3, 224, 224]")};
  d.sweep_axes = {bench::batch_of_shape_axis("shape")};
  return d;
}

WorkloadDescriptor linear_dropout_descriptor() {
  WorkloadDescriptor d = describe_workload("linear_dropout", {"train", "inference"}, {"benchmark"},
                                          "Linear+Dropout x2 with MSE loss and SGD: a training step (PyTorch CUDA-graph "
                                          "docs, blog)");
  d.variants = with_replay_forms({Variant::named("eager"), Variant::named("static"), Variant::named("graph"),
                                  Variant::named("reference"), Variant::named("reference+graph")});
  d.dtypes = {"float32"};
  ParamDecl dropout = bench::typed_param("dropout", ParamType::kNumberList, {0.2, 0.1},
                                         "dropout probabilities after the first and the second Linear");
  dropout.min = 0.0;
  dropout.max = 0.99;
  dropout.length = 2;
  d.params = {int_param("batch", 32, "N, rows per batch"),
              int_param("in_features", 128, "D_in"),
              int_param("hidden", 256, "H"),
              int_param("out_features", 16, "D_out"),
              dropout,
              number_param("lr", 0.1, 1e-8, 10.0, "learning rate"),
              choice_param("optimizer", "sgd", {"sgd", "adam", "adamw"},
                           "optimizer of the training step (reference variants: sgd only)"),
              number_param("momentum", 0.0, 0.0, 0.99, "SGD momentum"),
              number_param("weight_decay", 0.0, 0.0, 1.0, "weight decay")};
  d.sweep_axes = {bench::batch_param_axis("batch")};
  return d;
}

WorkloadDescriptor mnist_descriptor() {
  WorkloadDescriptor d = describe_workload("mnist", {"train"}, {"training", "benchmark"},
                                          "the LibTorch MNIST example: whole training runs, or one timed training "
                                          "step");
  d.variants = with_replay_forms({Variant::named("eager"), Variant::named("static"), Variant::named("graph"),
                                  Variant::named("reference"), Variant::named("reference+graph")});
  d.dtypes = {"float32"};
  d.params = {int_param("batch", 64, "training batch size"),
              int_param("test_batch", 1000, "test batch size"),
              int_param("epochs", 10, "epochs (kind training)"),
              int_param("log_interval", 10, "batches between logged losses (kind training)"),
              number_param("lr", 0.01, 1e-8, 10.0, "SGD learning rate"),
              number_param("momentum", 0.5, 0.0, 0.99, "SGD momentum"),
              choice_param("test_executor", "eager", {"eager", "graph"}, "how the test pass runs (kind training)"),
              choice_param("last_batch", "skip", {"skip", "capture"},
                           "the short last batch of an epoch: skip it (as the tutorial does) or train on it "
                           "(a second captured graph for its shape)"),
              choice_param("data", "device", {"device", "host"},
                           "where the data lives (kind training): on the device, each batch gathered there by "
                           "the step itself; or in host memory, each batch copied over (the tutorial's way)"),
              choice_param("order", "sequential", {"sequential", "shuffled"},
                           "the order of the training data (kind training): the tutorial's sequential order, or "
                           "a permutation per epoch drawn from --seed")};
  d.sweep_axes = {bench::batch_param_axis("batch")};
  return d;
}

WorkloadDescriptor one_kernel_descriptor() {
  WorkloadDescriptor d = describe_workload("one_kernel", {"inference"}, {"benchmark"},
                                          "one at::gelu kernel: the engine's replay path beside a bare "
                                          "CUDAGraph::replay() of the same graph");
  d.variants = with_replay_forms({Variant::named("eager"), Variant::named("graph"), Variant::named("reference"),
                                  Variant::named("reference+graph")});
  d.dtypes = {"float32"};
  d.params = {bench::typed_param("shape", ParamType::kPositiveIntList, nlohmann::json::array({1024}),
                                 "input shape; small, so that the host's part of a step dominates")};
  d.sweep_axes = {bench::batch_of_shape_axis("shape")};
  return d;
}

WorkloadDescriptor early_exit_descriptor() {
  WorkloadDescriptor d = describe_workload("early_exit", {"inference"}, {"benchmark"},
                                          "residual blocks with a head after each, stopping at the first confident "
                                          "head: a data-dependent early exit, eager, broken at each exit, and as one "
                                          "graph of conditional nodes");
  d.params = {bench::int_param("batch", 32, "rows per step"),
              bench::int_param("width", 512, "features of each residual block"),
              bench::int_param("classes", 10, "outputs of each head"),
              bench::int_param("blocks", 6, "residual blocks, each followed by a head (an exit)"),
              bench::number_param("threshold", 0.999, 0.0, 2.0,
                                  "stop at the first head whose softmax confidence (the batch's largest) is above "
                                  "this; 0: at the first head, above 1: never early")};
  d.variants = branching_variants();
  d.dtypes = {"float32"};
  return d;
}

WorkloadDescriptor torchscript_descriptor() {
  ParamDecl loss = choice_param("loss", "", {"mean", "mse", "cross_entropy"},
                                "mode train: mean of the first output, mse against a random target of its shape, or "
                                "cross_entropy of [N, C] scores against random class ids");
  loss.default_value = nullptr;
  loss.optional = true;
  WorkloadDescriptor d = bench::model_descriptor(
      "torchscript", "your own model: a TorchScript file (torch::jit::load), inference or a whole training step",
      {Variant::named("eager"), Variant::named("static"), Variant::named("graph")},
      "the TorchScript file (torch.jit.save), relative to the suite file",
      {loss, choice_param("optimizer", "sgd", {"sgd", "adam", "adamw"}, "mode train: the optimizer"),
       number_param("lr", 0.01, 1e-8, 10.0, "mode train: learning rate"),
       number_param("momentum", 0.0, 0.0, 0.99, "mode train: SGD momentum"),
       number_param("weight_decay", 0.0, 0.0, 1.0, "mode train: weight decay")});
  d.params.push_back(bench::pieces_param());
  d.params.push_back(bench::piece_outputs_param());
  d.check = check_torchscript_params;
  return d;
}

WorkloadDescriptor aoti_descriptor() {
  WorkloadDescriptor d = bench::model_descriptor(
      "aoti", "your own model: an AOTInductor package (.pt2, AOTIModelPackageLoader), inference or a whole training step",
      {Variant::named("eager"), Variant::named("graph")}, "the AOTInductor package (.pt2), relative to the suite file",
      {state_file_param()});
  const std::string pieces_are_torchscript =
      "the aoti workload runs a whole package; a model in pieces is a torchscript case (workload torchscript: "
      "scripts/export_model.py --scope ...; docs/scopes.md)";
  d.refused_params = {{"pieces", pieces_are_torchscript}, {"piece_outputs", pieces_are_torchscript}};
  d.check = check_aoti_params;
  return d;
}

WorkloadDescriptor torchscript_branches_descriptor() {
  WorkloadDescriptor d = describe_workload("torchscript_branches", {"inference"}, {"benchmark"},
                                          "your own model split at the branches of its own forward (export_model.py "
                                          "--scope auto): its pieces with the host deciding between them, eager and "
                                          "a graph per piece, or one graph of conditional nodes");
  d.variants = branching_variants();
  d.dtypes = {"float32", "float16", "bfloat16"};
  d.params = {bench::model_inputs_param(), bench::pieces_param(), bench::branches_param(), bench::threshold_param()};
  for (auto& p : bench::tolerance_params()) d.params.push_back(std::move(p));
  d.check = [](const nlohmann::json& params, const std::string&) -> std::optional<ParamProblem> {
    if (auto problem = bench::check_model_inputs(params)) return problem;
    if (auto problem = bench::check_no_state_inputs(params, "a model split at its branches")) return problem;
    return bench::check_branches(params);
  };
  return d;
}

const std::vector<WorkloadDescriptor>& workload_catalog() {
  static const std::vector<WorkloadDescriptor> catalog = [] {
    std::vector<WorkloadDescriptor> all = {aoti_descriptor(),       early_exit_descriptor(),
                                           gelu_descriptor(),       linear_dropout_descriptor(),
                                           mnist_descriptor(),      one_kernel_descriptor(),
                                           torchscript_descriptor(), torchscript_branches_descriptor()};
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return all;
  }();
  return catalog;
}

}  // namespace graphbench
