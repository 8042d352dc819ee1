#include "catalog/branch_tree.h"

#include "catalog/param_decls.h"

#include <fmt/format.h>

#include <set>

namespace graphbench::bench {

using nlohmann::json;

int BranchNode::next(double v) const {
  const bool holds = compare == ">" ? v > than : compare == ">=" ? v >= than : compare == "<" ? v < than : v <= than;
  return holds ? then_node : else_node;
}

ParamDecl branches_param() {
  ParamDecl run = typed_param("run", ParamType::kIntList, json::array(), "the pieces it runs, in order");
  run.max = 1e6;
  ParamDecl than = number_param("than", 0.0, -1e300, 1e300, "a decision: the number the value is compared with");
  ParamDecl then_node = number_param("then", -1, -1, 1e6, "a decision: the node where the comparison holds");
  ParamDecl else_node = number_param("else", -1, -1, 1e6, "a decision: the node where it does not");
  ParamDecl p = typed_param("branches", ParamType::kObjectList, nullptr,
                            "the tree of the model's branches, root first (scripts/export_model.py --scope auto): "
                            "[{\"run\": [K], \"value\": \"pieceJ.outN\", \"compare\", \"than\", \"then\", \"else\"} "
                            "(a decision) or {\"run\": [K], \"outputs\": [refs]} (a leaf)]");
  p.fields = {run,
              typed_param("value", ParamType::kString, "", "a decision: the one-element tensor read (\"pieceJ.outN\")"),
              choice_param("compare", ">", {">", ">=", "<", "<="}, "a decision: value compare than"),
              than,
              typed_param("line", ParamType::kString, "", "a decision: the model's source line"),
              then_node,
              else_node,
              typed_param("outputs", ParamType::kStringList, json::array(), "a leaf: the model's outputs")};
  return p;
}

ParamDecl threshold_param() {
  ParamDecl p = number_param("threshold", 0.0, -1e300, 1e300,
                             "replaces every decision's `than`, so that a case forces its outcomes");
  p.default_value = nullptr;
  p.optional = true;
  return p;
}

namespace {

// Walks the tree from `index` with the piece outputs known on the path so far; the first problem.
class TreeCheck {
 public:
  TreeCheck(const json& params) : nodes_(params.at("branches")), pieces_(params.at("pieces")),
                                  inputs_(params.at("inputs").size()) {}

  std::optional<ParamProblem> run() {
    if (auto problem = visit(0, {})) return problem;
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      if (!seen_nodes_.count(static_cast<int>(n))) return problem_at(fmt::format("/branches/{}", n), "no decision leads to this node");
    }
    for (std::size_t k = 0; k < pieces_.size(); ++k) {
      if (!seen_pieces_.count(static_cast<int>(k))) return problem_at(fmt::format("/pieces/{}", k), "no node runs this piece");
    }
    return std::nullopt;
  }

 private:
  static std::optional<ParamProblem> problem_at(std::string pointer, std::string message) {
    return ParamProblem{std::move(pointer), std::move(message)};
  }

  // What is wrong with `text` read where the pieces in `ran` have run; "" when nothing is.
  std::string ref_problem(const std::string& text, const std::set<int>& ran) const {
    const auto ref = parse_piece_ref(text);
    if (!ref) return fmt::format("expected a model input (\"input0\") or a piece's output (\"pieceJ.outN\"), got \"{}\"", text);
    if (ref->input >= 0) {
      return static_cast<std::size_t>(ref->input) < inputs_ ? "" :
             fmt::format("\"{}\" names model input {}, and the case's inputs are {}", text, ref->input, inputs_);
    }
    if (!ran.count(ref->piece)) {
      return fmt::format("\"{}\" names piece {}, which does not run before it on this path", text, ref->piece);
    }
    const auto outputs = pieces_.at(ref->piece).at("outputs").get<int>();
    return ref->output < outputs ? "" : fmt::format("\"{}\" names output {} of piece {}, which has {}", text,
                                                    ref->output, ref->piece, outputs);
  }

  std::optional<ParamProblem> visit(int index, std::set<int> ran) {
    const std::string at = fmt::format("/branches/{}", index);
    if (!seen_nodes_.insert(index).second) return problem_at(at, "reached twice: the branches must form a tree");
    const json& node = nodes_.at(index);
    const json& run = node.at("run");
    for (std::size_t i = 0; i < run.size(); ++i) {
      const auto k = run[i].get<int>();
      const std::string where = fmt::format("{}/run/{}", at, i);
      if (k >= static_cast<int>(pieces_.size())) return problem_at(where, fmt::format("piece {}: the case has {} pieces", k, pieces_.size()));
      if (!seen_pieces_.insert(k).second) return problem_at(where, fmt::format("piece {} runs on another node too", k));
      const json& inputs = pieces_.at(k).at("inputs");
      for (std::size_t j = 0; j < inputs.size(); ++j) {
        const std::string problem = ref_problem(inputs[j].get<std::string>(), ran);
        if (!problem.empty()) return problem_at(fmt::format("/pieces/{}/inputs/{}", k, j), problem);
      }
      ran.insert(k);
    }
    const std::string value = node.at("value").get<std::string>();
    const json& outputs = node.at("outputs");
    if (value.empty()) {
      if (outputs.empty()) return problem_at(at, "expected a decision (\"value\") or a leaf with \"outputs\", got neither");
      for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::string problem = ref_problem(outputs[i].get<std::string>(), ran);
        if (!problem.empty()) return problem_at(fmt::format("{}/outputs/{}", at, i), problem);
      }
      return std::nullopt;
    }
    if (!outputs.empty()) return problem_at(at + "/outputs", "a decision has no outputs (its leaves do)");
    if (const std::string problem = ref_problem(value, ran); !problem.empty()) return problem_at(at + "/value", problem);
    for (const char* side : {"then", "else"}) {
      const double child = node.at(side).get<double>();
      if (child <= index || child >= static_cast<double>(nodes_.size()) || child != static_cast<int>(child)) {
        return problem_at(fmt::format("{}/{}", at, side),
                          fmt::format("expected the index of a node after this one (below {}), got {}", nodes_.size(), child));
      }
      if (auto problem = visit(static_cast<int>(child), ran)) return problem;
    }
    return std::nullopt;
  }

  const json& nodes_;
  const json& pieces_;
  std::size_t inputs_;
  std::set<int> seen_nodes_, seen_pieces_;
};

}  // namespace

std::optional<ParamProblem> check_branches(const json& params) { return TreeCheck(params).run(); }

std::vector<BranchNode> read_branches(const CaseSpec& spec) {
  std::vector<BranchNode> nodes;
  const bool forced = spec.params.contains("threshold");
  for (const json& n : spec.params.at("branches")) {
    BranchNode node;
    for (const json& k : n.at("run")) node.run.push_back(k.get<int>());
    if (const auto value = n.at("value").get<std::string>(); !value.empty()) node.value = parse_piece_ref(value);
    node.compare = n.at("compare").get<std::string>();
    node.than = forced ? spec.params.at("threshold").get<double>() : n.at("than").get<double>();
    node.line = n.at("line").get<std::string>();
    node.then_node = static_cast<int>(n.at("then").get<double>());
    node.else_node = static_cast<int>(n.at("else").get<double>());
    for (const json& ref : n.at("outputs")) node.outputs.push_back(*parse_piece_ref(ref.get<std::string>()));
    nodes.push_back(std::move(node));
  }
  return nodes;
}

std::vector<std::vector<int>> every_path(const std::vector<BranchNode>& nodes) {
  std::vector<std::vector<int>> paths;
  std::vector<std::vector<int>> open = {{0}};
  while (!open.empty()) {
    std::vector<int> path = std::move(open.back());
    open.pop_back();
    const BranchNode& last = nodes.at(path.back());
    if (!last.decides()) {
      paths.push_back(std::move(path));
      continue;
    }
    for (int child : {last.else_node, last.then_node}) {
      open.push_back(path);
      open.back().push_back(child);
    }
  }
  return paths;
}

}  // namespace graphbench::bench
