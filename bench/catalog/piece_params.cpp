#include "catalog/piece_params.h"

#include "catalog/param_decls.h"

#include <fmt/format.h>

#include <cmath>
#include <cctype>

namespace graphbench::bench {

using nlohmann::json;

namespace {

// The 1 to 6 digits of `text` from `at` as a number, `at` moved past them; nullopt for none or more.
std::optional<int> digits_at(const std::string& text, std::size_t& at) {
  const std::size_t start = at;
  while (at < text.size() && at - start <= 6 && std::isdigit(static_cast<unsigned char>(text[at])) != 0) ++at;
  if (at == start || at - start > 6) return std::nullopt;
  return std::stoi(text.substr(start, at - start));
}

}  // namespace

std::optional<PieceRef> parse_piece_ref(const std::string& text) {
  // "input<N>" or "piece<J>.out<N>", each number of 1 to 6 digits.
  PieceRef ref;
  std::size_t at = 0;
  if (text.rfind("input", 0) == 0) {
    at = 5;
    const auto input = digits_at(text, at);
    if (!input || at != text.size()) return std::nullopt;
    ref.input = *input;
    return ref;
  }
  if (text.rfind("piece", 0) != 0) return std::nullopt;
  at = 5;
  const auto piece = digits_at(text, at);
  if (!piece || text.compare(at, 4, ".out") != 0) return std::nullopt;
  at += 4;
  const auto output = digits_at(text, at);
  if (!output || at != text.size()) return std::nullopt;
  ref.piece = *piece;
  ref.output = *output;
  return ref;
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

}  // namespace graphbench::bench
