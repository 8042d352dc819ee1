// A model split at the branches of its own forward (scripts/export_model.py --scope auto on a model
// whose forward reads `t.item()` and compares it with a number; docs/control-flow.md): its pieces,
// and a tree of nodes, root first, a node's children after it:
//   "branches": [{"run": [0], "value": "piece0.out2", "compare": ">", "than": 0.999,
//                 "line": "examples/early_exit.py:42 `if ...`", "then": 1, "else": 2},
//                {"run": [], "outputs": ["piece0.out1"]}, {"run": [1], ...}, ...]
// A node runs its pieces, then either decides (reads `value`, one element, on the host or the device,
// and goes on with `then` where `value compare than` holds, else with `else`) or ends the step with
// the model's `outputs`. A case's `threshold` replaces every decision's `than` (forcing outcomes).
#pragma once

#include "models/script_pieces.h"

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

// The rules the declarations cannot say, each a ParamProblem naming the field: every ref well formed
// and naming a model input or an output of a piece run before it on its path; each piece run on
// exactly one node; a tree (every node reached once from the root, children after their parent); a
// leaf with outputs.
std::optional<ParamProblem> check_branches(const nlohmann::json& params);

// The nodes, with the case's threshold applied.
std::vector<BranchNode> read_branches(const CaseSpec& spec);

// Every path of the tree, from the root to a leaf, each a list of node indices.
std::vector<std::vector<int>> every_path(const std::vector<BranchNode>& nodes);

}  // namespace graphbench::bench
