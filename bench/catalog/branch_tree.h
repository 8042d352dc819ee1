// A model split at the branches of its own forward (export_model.py --scope auto; docs/control-flow.md):
// its pieces and a tree of nodes, root first, children after their parent:
//   "branches": [{"run": [0], "value": "piece0.out2", "compare": ">", "than": 0.999,
//                 "line": "examples/early_exit.py:42 `if ...`", "then": 1, "else": 2},
//                {"run": [], "outputs": ["piece0.out1"]}, {"run": [1], ...}, ...]
// A node runs its pieces, then decides (`value compare than`: `then`, else `else`) or ends the step
// with `outputs`. A case's `threshold` replaces every `than`.
#pragma once

#include "catalog/piece_params.h"

#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace graphbench::bench {

struct BranchNode {
  std::vector<int> run;              // pieces, in order
  std::optional<PieceRef> value;     // a decision's value; none: a leaf
  std::string compare = ">";
  double than = 0.0;
  std::string line;                  // where the model's source branches
  int then_node = -1, else_node = -1;
  std::vector<PieceRef> outputs;     // a leaf's: the model's outputs
  bool decides() const { return value.has_value(); }
  // The next node after the value `v` was read.
  int next(double v) const;
};

ParamDecl branches_param();
ParamDecl threshold_param();

// The rules the declarations cannot say: refs to inputs or outputs run before on the path, each piece
// on one node, a tree (children after their parent), leaves with outputs.
std::optional<ParamProblem> check_branches(const nlohmann::json& params);

// The nodes, with the case's threshold applied.
std::vector<BranchNode> read_branches(const CaseSpec& spec);

// Every path of the tree, from the root to a leaf, each a list of node indices.
std::vector<std::vector<int>> every_path(const std::vector<BranchNode>& nodes);

}  // namespace graphbench::bench
