#include "models/script_pieces.h"

#include "common/case_helpers.h"
#include "models/model_case.h"
#include "models/script_model.h"

#include "graphbench/engine/exec/error_text.h"
#include "graphbench/engine/ops/aoti_package.h"
#include "graphbench/engine/ops/script_module.h"
#include "graphbench/engine/plan/tensor_spec.h"

#include <fmt/format.h>

#include <filesystem>

namespace graphbench::bench {

using nlohmann::json;

namespace {

PieceRef ref_of(const json& text) { return *parse_piece_ref(text.get<std::string>()); }

std::string pieces_where(std::size_t k, const char* name) { return fmt::format("pieces/{}/{}", k, name); }

}  // namespace

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
