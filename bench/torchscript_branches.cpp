// torchscript_branches: a model whose forward branches on a value it read (`if t.item() > c:`), split
// at its branches by export_model.py --scope auto (catalog/branch_tree.h; docs/control-flow.md).
//   eager        the pieces called in turn, the host reading each decision's value
//   graph        a graph per node, the host deciding between replays (where torch.compile breaks)
//   conditional  one graph of conditional nodes, the device deciding (a chain of exits or one branch)
// Every variant leaves the reached leaf's outputs and index: another way fails validation.
#include "common/case_workload.h"
#include "common/conditional_runner.h"
#include "catalog/branch_tree.h"
#include "models/model_case.h"
#include "models/script_pieces.h"

#include "graphbench/engine/exec/conditional_graph.h"
#include "graphbench/engine/ops/aoti_package.h"
#include "graphbench/engine/ops/script_module.h"

#include <ATen/ATen.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#ifdef GRAPHBENCH_WITH_CUDA
#include "graphbench/engine/exec/graph_inspect.h"

#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <algorithm>
#include <memory>

namespace graphbench {

namespace {

using bench::BranchNode;
using bench::PieceRef;

// The pieces and the tree, loaded once for every runner of the case.
struct BranchProgram {
  bench::ScriptPieces pieces;
  std::vector<bench::LoadedPiece> loaded;
  std::vector<BranchNode> nodes;
};

// What one pass through the tree computes: the model's inputs and every piece's outputs.
struct BranchValues {
  std::shared_ptr<BranchProgram> program;
  std::vector<at::Tensor> inputs;
  std::vector<std::vector<at::Tensor>> outputs;  // by piece

  BranchValues(std::shared_ptr<BranchProgram> p, std::vector<at::Tensor> in)
      : program(std::move(p)), inputs(std::move(in)), outputs(program->pieces.pieces.size()) {}
  at::Tensor at(const PieceRef& ref) const {
    return ref.input >= 0 ? inputs.at(ref.input) : outputs.at(ref.piece).at(ref.output);
  }
  void run_node(int n) {
    const at::NoGradGuard no_grad;  // inference: the pieces' parameters require grad as saved
    for (int k : program->nodes.at(n).run) {
      std::vector<at::Tensor> args;
      for (const PieceRef& ref : program->pieces.pieces[k].inputs) args.push_back(at(ref));
      bench::LoadedPiece& piece = program->loaded[k];
      outputs[k] = piece.is_package() ? piece.package->run(args)
                                      : ops::flatten_tensors(piece.module.forward({args.begin(), args.end()}));
    }
  }
  // The decision's value read on the host (a sync).
  int next(int n) const { return program->nodes[n].next(at(*program->nodes[n].value).item<double>()); }
  std::vector<at::Tensor> leaf_outputs(int leaf) const {
    std::vector<at::Tensor> out;
    for (const PieceRef& ref : program->nodes[leaf].outputs) out.push_back(at(ref));
    return out;
  }
  // Every path run once, each decision forced both ways (warm-up before a capture; shapes of leaves).
  std::vector<std::vector<at::Tensor>> run_every_path() {
    std::vector<std::vector<at::Tensor>> leaves(program->nodes.size());
    for (const auto& path : bench::every_path(program->nodes)) {
      for (int n : path) run_node(n);
      leaves[path.back()] = leaf_outputs(path.back());
    }
    return leaves;
  }
};

std::vector<at::Tensor> clones(const std::vector<at::Tensor>& in) {
  std::vector<at::Tensor> out;
  for (const auto& t : in) out.push_back(t.clone());
  return out;
}

// Validation's view: the leaf's outputs and the leaf's index, as a one-element tensor.
std::vector<at::Tensor> observed(const std::vector<at::Tensor>& outputs, const at::Tensor& leaf) {
  std::vector<at::Tensor> out = clones(outputs);
  out.push_back(leaf.clone());
  return out;
}

// What a runner that decided on the host observes after reaching `leaf`.
std::vector<at::Tensor> observed_at(const BranchValues& values, int leaf) {
  return observed(values.leaf_outputs(leaf),
                  at::full({1}, static_cast<double>(leaf), values.inputs.at(0).options().dtype(at::kFloat)));
}

class EagerBranchRunner final : public VariantRunner {
 public:
  EagerBranchRunner(std::shared_ptr<BranchProgram> program, std::vector<at::Tensor> inputs)
      : values_(std::move(program), std::move(inputs)) {}
  void step() override {
    path_ = {0};
    for (values_.run_node(0); values_.program->nodes[path_.back()].decides(); values_.run_node(path_.back())) {
      path_.push_back(values_.next(path_.back()));
    }
  }
  std::vector<at::Tensor> observe() override {
    return observed_at(values_, path_.back());
  }
  const std::vector<int>& path() const { return path_; }

 private:
  BranchValues values_;
  std::vector<int> path_;  // the nodes the last step went through
};

#ifdef GRAPHBENCH_WITH_CUDA
// A graph per node that runs capturable pieces, one pool for all so what a node leaves stays in place.
class SplitBranchRunner final : public VariantRunner {
 public:
  SplitBranchRunner(std::shared_ptr<BranchProgram> program, const std::vector<at::Tensor>& inputs)
      : values_(std::move(program), clones(inputs)), case_inputs_(inputs) {
    values_.run_every_path();
    const auto& nodes = values_.program->nodes;
    graphs_.resize(nodes.size());
    const c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
    for (std::size_t n = 0; n < nodes.size(); ++n) {  // parents before children: their outputs are in place
      if (nodes[n].run.empty() || !capturable(nodes[n])) continue;
      auto g = make_inspectable_graph();
      g->capture_begin(pool_.has_value() ? *pool_ : at::cuda::MempoolId_t{0, 0}, cudaStreamCaptureModeThreadLocal);
      values_.run_node(static_cast<int>(n));
      g->capture_end();
      instantiate_kept(*g);
      if (!pool_) pool_ = g->pool();
      facts_.push_back(inspect_graph(*g, *pool_, inputs.at(0).device().index()));
      graphs_[n] = std::move(g);
    }
  }
  void step() override {
    for (std::size_t i = 0; i < case_inputs_.size(); ++i) values_.inputs[i].copy_(case_inputs_[i]);
    leaf_ = 0;
    for (run(leaf_); values_.program->nodes[leaf_].decides(); run(leaf_)) leaf_ = values_.next(leaf_);
  }
  std::vector<at::Tensor> observe() override {
    return observed_at(values_, leaf_);
  }
  std::vector<GraphFacts> graphs() const override { return facts_; }
  std::map<std::string, std::int64_t> counters() const override { return {{"replays", replays_}}; }

 private:
  bool capturable(const BranchNode& node) const {
    return std::all_of(node.run.begin(), node.run.end(),
                       [&](int k) { return values_.program->pieces.pieces[k].tag.capturable; });
  }
  void run(int n) {
    if (graphs_[n]) {
      graphs_[n]->replay();
      ++replays_;
    } else {
      values_.run_node(n);
    }
  }

  BranchValues values_;
  std::vector<at::Tensor> case_inputs_;
  std::vector<std::unique_ptr<at::cuda::CUDAGraph>> graphs_;  // by node; none where it runs eagerly
  std::optional<at::cuda::MempoolId_t> pool_;
  std::vector<GraphFacts> facts_;
  std::int64_t replays_ = 0;
  int leaf_ = 0;
};
#endif

// The tree as conditional nodes: a chain of exits (`chain`'s links) or one branch between two leaves;
// "" where it is one of them, else why not.
struct ExitLink {
  int node = 0;        // runs its pieces, then decides (the last link: the leaf that ends the chain)
  int exit_leaf = -1;  // where the step ends when `exit_when` holds (the last link: none)
  ConditionalGraph::Decision exit_when;
};

std::string conditional_shape_problem(const std::vector<BranchNode>& nodes, std::vector<ExitLink>& chain) {
  const BranchNode& root = nodes.at(0);
  if (!root.decides()) return "the model has no branch left to decide";
  const auto ends_here = [&](int n) { return !nodes[n].decides() && nodes[n].run.empty(); };
  for (int n = 0;;) {
    const BranchNode& node = nodes[n];
    if (!node.decides()) {
      chain.push_back({n, -1, {}});
      break;
    }
    const ConditionalGraph::Decision holds{ConditionalGraph::compare_from_text(node.compare), node.than};
    if (ends_here(node.then_node)) {
      chain.push_back({n, node.then_node, holds});
      n = node.else_node;
    } else if (ends_here(node.else_node)) {
      chain.push_back({n, node.else_node, ConditionalGraph::negated(holds)});
      n = node.then_node;
    } else {
      chain.clear();
      break;
    }
  }
  if (!chain.empty()) return "";
  if (!nodes[root.then_node].decides() && !nodes[root.else_node].decides()) return "";
  return "the tree is not a chain of exits (at each decision one side ending the step) or one branch between two "
         "leaves: it runs as eager and graph only";
}

// One graph, the device deciding; each leaf writes its outputs and index into fixed buffers.
class ConditionalBranchRunner final : public bench::ConditionalGraphRunner {
 public:
  ConditionalBranchRunner(std::shared_ptr<BranchProgram> program, const std::vector<at::Tensor>& inputs,
                          const std::vector<ExitLink>& chain, bool fed)
      : values_(program, clones(inputs)) {
    const auto leaves = values_.run_every_path();
    const auto& nodes = values_.program->nodes;
    const int any_leaf = chain.empty() ? nodes[0].then_node : chain.back().node;
    for (const auto& t : leaves[any_leaf]) buffers_.push_back(at::zeros_like(t));
    leaf_ = at::zeros({1}, inputs.at(0).options().dtype(at::kFloat));
    if (!chain.empty()) {
      std::vector<ConditionalGraph::Piece> pieces;
      std::vector<ConditionalGraph::Decision> exits;
      for (std::size_t i = 0; i < chain.size(); ++i) {
        const ExitLink link = chain[i];
        const bool last = i + 1 == chain.size();
        pieces.push_back([this, link, last] {
          values_.run_node(link.node);
          end_at(last ? link.node : link.exit_leaf);
          return last ? at::Tensor() : decision_value(link.node);
        });
        if (!last) exits.push_back(link.exit_when);
      }
      graph_ = ConditionalGraph::exit_chain(pieces, exits);
    } else {
      const BranchNode& root = nodes[0];
      const int then_leaf = root.then_node, else_leaf = root.else_node;
      graph_ = ConditionalGraph::branch([this] { values_.run_node(0); return decision_value(0); },
                                        [this, then_leaf] { values_.run_node(then_leaf); end_at(then_leaf); },
                                        [this, else_leaf] { values_.run_node(else_leaf); end_at(else_leaf); },
                                        {ConditionalGraph::compare_from_text(root.compare), root.than});
    }
    for (std::size_t i = 0; fed && i < inputs.size(); ++i) feed_.emplace_back(values_.inputs[i], inputs[i]);
  }
  std::vector<at::Tensor> observe() override { return observed(buffers_, leaf_); }

 private:
  at::Tensor decision_value(int n) { return values_.at(*values_.program->nodes[n].value).to(at::kFloat).reshape({1}); }
  void end_at(int leaf) {
    const auto outputs = values_.leaf_outputs(leaf);
    for (std::size_t i = 0; i < outputs.size(); ++i) buffers_[i].copy_(outputs[i]);
    leaf_.fill_(static_cast<double>(leaf));
  }

  BranchValues values_;
  std::vector<at::Tensor> buffers_;
  at::Tensor leaf_;
};

class BranchesCase final : public CaseInstance {
 public:
  BranchesCase(const CaseSpec& spec, const CaseContext& context)
      : program_(std::make_shared<BranchProgram>()), tolerance_(bench::model_tolerance(spec)) {
    program_->pieces = bench::read_pieces(spec);
    program_->loaded = bench::load_pieces(spec, program_->pieces, context.device);
    program_->nodes = bench::read_branches(spec);
    inputs_ = bench::make_model_inputs(bench::read_model_inputs(spec), context.device);
    // Which way the case's inputs go, from one eager step (every record says it); and whether every
    // leaf gives outputs of one make-up, which one set of buffers needs.
    EagerBranchRunner probe(program_, inputs_);
    probe.step();
    notes_.push_back(path_note(probe.path()));
    conditional_problem_ = conditional_shape_problem(program_->nodes, chain_);
    if (conditional_problem_.empty()) conditional_problem_ = leaves_differ();
  }

  std::vector<std::string> setup_notes() const override { return notes_; }

  std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool) override {
    if (variant.source() == StepSource::kConditional) {
      return std::make_unique<ConditionalBranchRunner>(program_, inputs_, chain_, !variant.inputs_in_place());
    }
#ifdef GRAPHBENCH_WITH_CUDA
    if (variant.needs_cuda_graph()) return std::make_unique<SplitBranchRunner>(program_, inputs_);
#endif
    return std::make_unique<EagerBranchRunner>(program_, inputs_);
  }

  std::string skip_reason(const Variant& variant) const override {
    if (variant.source() != StepSource::kConditional) return "";
    const std::string unavailable = conditional_nodes_unavailable();
    return unavailable.empty() ? conditional_problem_ : unavailable;
  }

  StepCost cost() const override { return {}; }
  double rtol(const Variant&) const override { return tolerance_.rtol; }
  double atol(const Variant&) const override { return tolerance_.atol; }

 private:
  std::string path_note(const std::vector<int>& path) const {
    const auto& nodes = program_->nodes;
    std::vector<std::string> ways, lines;  // each branch's way; the source lines, each once
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      const BranchNode& node = nodes[path[i]];
      ways.push_back(path[i + 1] == node.then_node ? "then" : "else");
      if (std::find(lines.begin(), lines.end(), node.line) == lines.end()) lines.push_back(node.line);
    }
    return fmt::format("the case's inputs take {} branch(es) of the model's own forward and end at node {} of {}{}{}{}",
                       ways.size(), path.back(), nodes.size(), ways.empty() ? "" : ": ", fmt::join(ways, ", "),
                       lines.empty() ? "" : fmt::format(" (at {})", fmt::join(lines, "; ")));
  }

  std::string leaves_differ() {
    BranchValues values(program_, inputs_);
    const auto leaves = values.run_every_path();
    const std::vector<at::Tensor>* first = nullptr;
    for (std::size_t n = 0; n < leaves.size(); ++n) {
      if (program_->nodes[n].decides()) continue;
      if (first == nullptr) {
        first = &leaves[n];
        continue;
      }
      bool same = leaves[n].size() == first->size();
      for (std::size_t i = 0; same && i < first->size(); ++i) {
        same = leaves[n][i].sizes() == (*first)[i].sizes() && leaves[n][i].scalar_type() == (*first)[i].scalar_type();
      }
      if (!same) return fmt::format("leaf {} gives outputs of other shapes or dtypes than the first leaf: one graph "
                                    "needs one set of output buffers", n);
    }
    return "";
  }

  std::shared_ptr<BranchProgram> program_;
  std::vector<at::Tensor> inputs_;
  bench::Tolerance tolerance_;
  std::vector<std::string> notes_;
  std::vector<ExitLink> chain_;  // a chain of exits: its links, the last leaf last; empty: one branch
  std::string conditional_problem_;
};

}  // namespace

GRAPHBENCH_REGISTER_CASE_WORKLOAD(BranchesCase, torchscript_branches_descriptor, bench::Grad::kOff);

}  // namespace graphbench
