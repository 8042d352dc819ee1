// The pieces of a model split by scripts/export_model.py --scope, as a torchscript case declares
// them (models/script_pieces.h runs them): refs, the parameters `pieces` and `piece_outputs`, and
// their wiring rules. Refs name a model input ("input0") or an earlier piece's output ("piece2.out1").
#pragma once

#include "graphbench/core/workload/descriptor.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace graphbench::bench {

// A model input (input >= 0) or output `output` of piece `piece`.
struct PieceRef {
  int input = -1;
  int piece = -1;
  int output = 0;
};

// A ref's text read ("input0", "piece2.out1") without checking what it names; nullopt otherwise.
std::optional<PieceRef> parse_piece_ref(const std::string& text);

// The two optional parameters of a torchscript case.
ParamDecl pieces_param();
ParamDecl piece_outputs_param();

// The wiring rules the declarations cannot say: both or neither of pieces and piece_outputs, every
// ref naming an existing input or earlier output, a whole layer number.
std::optional<ParamProblem> check_pieces(const nlohmann::json& params);

}  // namespace graphbench::bench
