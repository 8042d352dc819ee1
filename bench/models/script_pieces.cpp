#include "models/script_pieces.h"

#include "common/case_helpers.h"
#include "models/model_case.h"
#include "models/script_model.h"

#include "graphbench/engine/exec/error_text.h"
#include "graphbench/engine/ops/aoti_package.h"
#include "graphbench/engine/ops/script_module.h"
#include "graphbench/engine/plan/tensor_spec.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <regex>

namespace graphbench::bench {

using nlohmann::json;

std::optional<PieceRef> parse_piece_ref(const std::string& text) {
  static const std::regex kInput("input(\\d{1,6})");
  static const std::regex kPieceOutput("piece(\\d{1,6})\\.out(\\d{1,6})");
  std::smatch m;
  PieceRef ref;
  if (std::regex_match(text, m, kInput)) {
    ref.input = std::stoi(m[1]);
    return ref;
  }
  if (std::regex_match(text, m, kPieceOutput)) {
    ref.piece = std::stoi(m[1]);
    ref.output = std::stoi(m[2]);
    return ref;
  }
  return std::nullopt;
}

namespace {

// What is wrong with `text` as a ref read by piece `reader` (pieces.size(): piece_outputs), or "".
std::string ref_problem(const std::string& text, std::size_t reader, const json& pieces, std::size_t model_inputs) {
  const auto ref = parse_piece_ref(text);
  if (!ref) {
    return fmt::format("expected a model input (\"input0\" to \"input{}\") or an earlier piece's output "
                       "(\"pieceJ.outN\"), got \"{}\"",
                       model_inputs - 1, text);
  }
  if (ref->input >= 0) {
    if (static_cast<std::size_t>(ref->input) >= model_inputs) {
      return fmt::format("\"{}\" names model input {}, and the case's inputs are {} (input0 to input{})", text,
                         ref->input, model_inputs, model_inputs - 1);
    }
    return "";
  }
  const auto piece = static_cast<std::size_t>(ref->piece);
  if (piece >= reader) {
    const std::string who = reader == pieces.size() ? "the model's outputs" : fmt::format("piece {}", reader);
    if (piece >= pieces.size()) {
      return fmt::format("\"{}\" names piece {}, and the case has {} pieces (piece0 to piece{})", text, piece,
                         pieces.size(), pieces.size() - 1);
    }
    return fmt::format("\"{}\" names piece {}, which does not run before {} (pieces run in the order given: a "
                       "wiring to a later piece, or to itself, is a cycle)",
                       text, piece, who);
  }
  const auto outputs = pieces[piece].at("outputs").get<std::int64_t>();
  if (ref->output >= outputs) {
    return fmt::format("\"{}\" names output {} of piece {}, which has {} (out0 to out{})", text, ref->output, piece,
                       outputs, outputs - 1);
  }
  return "";
}

PieceRef ref_of(const json& text) { return *parse_piece_ref(text.get<std::string>()); }

std::string pieces_where(std::size_t k, const char* name) { return fmt::format("pieces/{}/{}", k, name); }

}  // namespace

ParamDecl pieces_param() {
  ParamDecl layer = typed_param("layer", ParamType::kNumber, -1, "the repeated block (transformer layer, ResNet stage) it "
                                                           "belongs to, from 0; -1 outside any");
  layer.min = -1;
  layer.max = 1e6;
  ParamDecl reason = optional_param("reason", ParamType::kString, "why it cannot be captured");
  ParamDecl model = optional_param("model", ParamType::kString,
                                   "a .pt2 piece: the name of its model in the package (default \"model\"; one package "
                                   "may hold every piece, each a model of its own)");
  ParamDecl pieces = optional_param("pieces", ParamType::kObjectList,
                           "the model split into pieces (scripts/export_model.py --scope), run in order: "
                           "[{\"path\", \"inputs\": [\"input0\" | \"pieceJ.outN\"], \"outputs\", \"module\", "
                           "\"layer\", \"attention\", \"capturable\"}]; `path` is then the whole model, which the "
                           "chain is compared with");
  pieces.fields = {typed_param("path", ParamType::kPath, nullptr, "the piece's TorchScript file, or (inference) its AOTInductor package (.pt2), relative to the suite file"),
                   typed_param("inputs", ParamType::kStringList, nullptr,
                         "its inputs in forward's order: a model input (\"input0\") or an earlier piece's output "
                         "(\"piece2.out0\")"),
                   typed_param("outputs", ParamType::kPositiveInt, nullptr, "how many tensors it returns"),
                   typed_param("module", ParamType::kString, "", "the dotted path of the module it computes"),
                   layer,
                   typed_param("attention", ParamType::kBool, false, "an attention piece (run eagerly by attention-out)"),
                   typed_param("capturable", ParamType::kBool, true, "false: it cannot be captured (run eagerly by auto)"),
                   reason,
                   model};
  return pieces;
}

ParamDecl piece_outputs_param() {
  return optional_param("piece_outputs", ParamType::kStringList,
                        "with pieces: the model's outputs in order, each \"pieceJ.outN\" (or a model input)");
}

std::optional<ParamProblem> check_pieces(const json& params) {
  const bool pieces = params.contains("pieces");
  if (pieces != params.contains("piece_outputs")) {
    return ParamProblem{"", pieces ? "missing required key \"piece_outputs\" (with pieces: the model's outputs)"
                                   : "missing required key \"pieces\" (piece_outputs names their outputs)"};
  }
  if (!pieces) return std::nullopt;
  const json& list = params.at("pieces");
  const std::size_t model_inputs = params.at("inputs").size();
  for (std::size_t k = 0; k < list.size(); ++k) {
    const double layer = list[k].at("layer").get<double>();
    if (layer != std::floor(layer)) {
      return ParamProblem{fmt::format("/pieces/{}/layer", k), fmt::format("expected a whole number, got {}", layer)};
    }
    const json& inputs = list[k].at("inputs");
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const std::string problem = ref_problem(inputs[i].get<std::string>(), k, list, model_inputs);
      if (!problem.empty()) return ParamProblem{fmt::format("/pieces/{}/inputs/{}", k, i), problem};
    }
  }
  const json& outputs = params.at("piece_outputs");
  if (outputs.empty()) return ParamProblem{"/piece_outputs", "expected at least one output, got []"};
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const std::string problem = ref_problem(outputs[i].get<std::string>(), list.size(), list, model_inputs);
    if (!problem.empty()) return ParamProblem{fmt::format("/piece_outputs/{}", i), problem};
  }
  return std::nullopt;
}

bool has_pieces(const CaseSpec& spec) { return spec.params.contains("pieces"); }

ScriptPieces read_pieces(const CaseSpec& spec) {
  ScriptPieces out;
  for (const json& p : spec.params.at("pieces")) {
    ScriptPiece piece;
    piece.path = p.at("path").get<std::string>();
    for (const json& ref : p.at("inputs")) piece.inputs.push_back(ref_of(ref));
    piece.outputs = p.at("outputs").get<int>();
    piece.tag.module = p.at("module").get<std::string>();
    piece.tag.layer = static_cast<int>(p.at("layer").get<double>());
    piece.tag.attention = p.at("attention").get<bool>();
    piece.tag.capturable = p.at("capturable").get<bool>();
    if (p.contains("reason")) piece.tag.uncapturable_reason = p.at("reason").get<std::string>();
    if (p.contains("model")) piece.package_model = p.at("model").get<std::string>();
    out.pieces.push_back(std::move(piece));
  }
  if (spec.params.contains("piece_outputs")) {
    for (const json& ref : spec.params.at("piece_outputs")) out.outputs.push_back(ref_of(ref));
  }
  return out;
}

bool is_package_piece(const ScriptPiece& piece) {
  return piece.path.size() > 4 && piece.path.compare(piece.path.size() - 4, 4, ".pt2") == 0;
}

std::vector<LoadedPiece> load_pieces(const CaseSpec& spec, const ScriptPieces& pieces, at::Device device, bool train,
                                     bool load_packages) {
  std::vector<LoadedPiece> out;
  for (std::size_t k = 0; k < pieces.pieces.size(); ++k) {
    const ScriptPiece& piece = pieces.pieces[k];
    const std::string where = pieces_where(k, "path");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(piece.path, ec)) {
      fail_case_field(spec, where,
                      fmt::format("{}: no such file (case {}; scripts/export_model.py --scope writes the pieces "
                                  "beside the whole model)",
                                  piece.path, spec.name));
    }
    if (is_package_piece(piece)) {
      if (train) {
        fail_case_field(spec, where,
                        fmt::format("{}: an AOTInductor package runs inference only; a training step's pieces are "
                                    "TorchScript (case {}; export_model.py --mode train --scope writes them)",
                                    piece.path, spec.name));
      }
      LoadedPiece loaded;
      if (load_packages) loaded.package = ops::AotiPackage::load(piece.path, device, piece.package_model);
      out.push_back(std::move(loaded));
      continue;
    }
    torch::jit::Module module;
    try {
      module = torch::jit::load(piece.path, device);
    } catch (const std::exception& e) {
      fail_case_field(spec, where, fmt::format("{}: not a TorchScript file (case {}; torch::jit::load: {})", piece.path,
                                               spec.name, error_text(e)));
    }
    const auto forward = module.find_method("forward");
    if (!forward) {
      fail_case_field(spec, where, fmt::format("{}: the TorchScript module has no forward method (case {})",
                                               piece.path, spec.name));
    }
    const ForwardArguments arguments = forward_arguments(*forward);
    const std::size_t wired = piece.inputs.size();
    if (wired < arguments.required || wired > arguments.total) {
      fail_case_field(spec, pieces_where(k, "inputs"),
                      fmt::format("piece {} ({}) takes {} input(s), {}; the case wires {} (case {})", k, piece.path,
                                  arguments.total, arguments.signature, wired, spec.name));
    }
    module.eval();
    out.push_back(LoadedPiece{std::move(module), nullptr});
  }
  return out;
}

ChainRun run_chain(const CaseSpec& spec, const ScriptPieces& pieces, std::vector<LoadedPiece>& loaded,
                   const std::vector<at::Tensor>& inputs) {
  at::NoGradGuard no_grad;
  std::vector<std::vector<at::Tensor>> outputs;
  const auto resolve = [&](const PieceRef& ref) {
    return ref.input >= 0 ? inputs.at(ref.input) : outputs.at(ref.piece).at(ref.output);
  };
  ChainRun run;
  for (std::size_t k = 0; k < pieces.pieces.size(); ++k) {
    const ScriptPiece& piece = pieces.pieces[k];
    std::vector<at::Tensor> args;
    for (const auto& ref : piece.inputs) args.push_back(resolve(ref));
    std::vector<at::Tensor> result;
    try {
      result = loaded[k].is_package()
                   ? loaded[k].package->run(args)
                   : ops::flatten_tensors(loaded[k].module.forward(std::vector<c10::IValue>(args.begin(), args.end())));
    } catch (const std::exception& e) {
      std::vector<TensorSpec> specs;
      for (const auto& t : args) specs.push_back(spec_of(t));
      fail_case_field(spec, pieces_where(k, "inputs"),
                      fmt::format("piece {} ({}) rejects its inputs {} (case {}): {}", k, piece.path, to_string(specs),
                                  spec.name, error_text(e)));
    }
    if (static_cast<int>(result.size()) != piece.outputs) {
      fail_case_field(spec, pieces_where(k, "outputs"),
                      fmt::format("piece {} ({}) returns {} tensor(s), the case says {} (case {})", k, piece.path,
                                  result.size(), piece.outputs, spec.name));
    }
    run.piece_inputs.push_back(std::move(args));
    outputs.push_back(std::move(result));
  }
  for (const auto& ref : pieces.outputs) run.outputs.push_back(resolve(ref));
  return run;
}

}  // namespace graphbench::bench
