// A model split into pieces (scripts/export_model.py --scope, docs/models.md "Splitting a model
// into pieces"): a torchscript case's `pieces`, each a TorchScript file, or in inference an
// AOTInductor package (a path ending in .pt2, compiled by Inductor), with its wiring and its tag,
// and `piece_outputs`, the model's outputs. Refs name a model input ("input0") or an output
// of an earlier piece ("piece2.out1"); the pieces run in the order given, so a wiring to a later
// piece (or to itself, a cycle) is refused.
//   "pieces": [{"path": "m.layer.piece0.pt", "inputs": ["input0"], "outputs": 1,
//               "module": "blocks.0", "layer": 0, "attention": false, "capturable": true}, ...],
//   "piece_outputs": ["piece3.out0"]
#pragma once

#include "models/chain_check.h"

#include "graphbench/engine/plan/op_tag.h"
#include "graphbench/engine/plan/program.h"
#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>
#include <torch/script.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graphbench::ops {
class AotiPackage;
}

namespace graphbench::bench {

// A model input (input >= 0) or output `output` of piece `piece`.
struct PieceRef {
  int input = -1;
  int piece = -1;
  int output = 0;
};

// A ref's text read ("input0", "piece2.out1"), without checking what it names; nullopt when it is
// neither form.
std::optional<PieceRef> parse_piece_ref(const std::string& text);

struct ScriptPiece {
  std::string path;  // resolved against the suite file's folder
  std::string package_model = "model";  // a .pt2 piece: its model's name in the package ("model")
  std::vector<PieceRef> inputs;
  int outputs = 0;
  OpTag tag;
};

struct ScriptPieces {
  std::vector<ScriptPiece> pieces;
  std::vector<PieceRef> outputs;
};

// The two optional parameters of a torchscript case.
ParamDecl pieces_param();
ParamDecl piece_outputs_param();

// The rules of the wiring that the declarations cannot say (a ParamProblem names the field): both
// or neither of pieces and piece_outputs, every ref well formed and naming a model input the case
// has or an output of an earlier piece that it has, a layer a whole number. Either mode: in mode
// train the loss is of the first of piece_outputs.
std::optional<ParamProblem> check_pieces(const nlohmann::json& params);

bool has_pieces(const CaseSpec& spec);
// The pieces, and piece_outputs where the case has them (a model split at its branches has none).
ScriptPieces read_pieces(const CaseSpec& spec);

// True for a piece that is an AOTInductor package (its path ends in .pt2).
bool is_package_piece(const ScriptPiece& piece);

// One loaded piece: its TorchScript module, or its package (inference only).
struct LoadedPiece {
  torch::jit::Module module;
  std::shared_ptr<ops::AotiPackage> package;  // set for a .pt2 piece, once loaded
  bool is_package() const { return package != nullptr; }
};

// Loads every piece onto `device`: InputError naming the case's pieces/K/path for a missing file,
// one that is not TorchScript, and a forward that takes another number of inputs than wired; for a
// package piece, InputError in mode train (a package is inference only), EngineError where this
// LibTorch has no AOTInductor loader. With `load_packages` false the packages' files are only
// checked to be there (a preflight on the CPU of a CUDA package).
std::vector<LoadedPiece> load_pieces(const CaseSpec& spec, const ScriptPieces& pieces, at::Device device,
                                     bool train = false, bool load_packages = true);

// Calls the pieces in order on the model's inputs: each piece's inputs (what the program's op is
// built at) and the model's outputs. InputError naming pieces/K for a piece that rejects its inputs
// (shapes that do not match) or returns another number of tensors than `outputs` says.
ChainRun run_chain(const CaseSpec& spec, const ScriptPieces& pieces, std::vector<LoadedPiece>& loaded,
                   const std::vector<at::Tensor>& inputs);

// The program values that pieces' refs name while a program is built: the model's inputs, and the
// outputs of the pieces added so far (add_piece_outputs in piece order).
class PieceValues {
 public:
  explicit PieceValues(std::vector<ValueId> inputs) : inputs_(std::move(inputs)) {}
  ValueId at(const PieceRef& ref) const {
    return ref.input >= 0 ? inputs_.at(ref.input) : outputs_.at(ref.piece).at(ref.output);
  }
  std::vector<ValueId> inputs_of(const ScriptPiece& piece) const {
    std::vector<ValueId> values;
    for (const auto& ref : piece.inputs) values.push_back(at(ref));
    return values;
  }
  void add_piece_outputs(std::vector<ValueId> outputs) { outputs_.push_back(std::move(outputs)); }

 private:
  std::vector<ValueId> inputs_;
  std::vector<std::vector<ValueId>> outputs_;
};

}  // namespace graphbench::bench
