// A model split into pieces (scripts/export_model.py --scope; docs/models.md): a torchscript case's
// `pieces` (TorchScript files, or in inference .pt2 AOTInductor packages) with wiring and tags, and
// `piece_outputs`. Refs name a model input ("input0") or an earlier piece's output ("piece2.out1");
// pieces run in order, so wiring to a later piece (or itself) is refused.
//   "pieces": [{"path": "m.layer.piece0.pt", "inputs": ["input0"], "outputs": 1,
//               "module": "blocks.0", "layer": 0, "attention": false, "capturable": true}, ...],
//   "piece_outputs": ["piece3.out0"]
#pragma once

#include "catalog/piece_params.h"
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

// Loads every piece onto `device` (InputError naming pieces/K/path; EngineError without a loader);
// `load_packages` false: packages only checked to be there (a CPU preflight).
std::vector<LoadedPiece> load_pieces(const CaseSpec& spec, const ScriptPieces& pieces, at::Device device,
                                     bool train = false, bool load_packages = true);

// Calls the pieces in order on the model's inputs; InputError naming pieces/K for a piece that
// rejects its inputs or returns another number of tensors.
ChainRun run_chain(const CaseSpec& spec, const ScriptPieces& pieces, std::vector<LoadedPiece>& loaded,
                   const std::vector<at::Tensor>& inputs);

// The program values refs name while a program is built: inputs and the pieces' outputs so far.
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
