// Conditional graphs (see conditional_graph.h).
#include "graphbench/engine/exec/conditional_graph.h"

#include "graphbench/core/base/elapsed.h"
#include "graphbench/core/base/errors.h"
#include "graphbench/engine/exec/condition_kernels.h"

#include <fmt/format.h>

#include <chrono>

#ifdef GRAPHBENCH_HAS_CONDITIONAL_NODES
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#endif

namespace graphbench {

#ifdef GRAPHBENCH_HAS_CONDITIONAL_NODES

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw CaptureError(fmt::format("conditional graph: {} failed: {} ({})", what, cudaGetErrorName(status),
                                   cudaGetErrorString(status)));
  }
}

// Adds a conditional IF node after `dependency` to `graph`; its body graphs (1, or 2 with an ELSE).
std::vector<cudaGraph_t> add_if_node(cudaGraphNode_t* node, cudaGraph_t graph, cudaGraphNode_t dependency,
                                     cudaGraphConditionalHandle handle, unsigned int bodies) {
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = cudaGraphCondTypeIf;
  params.conditional.size = bodies;
#if CUDART_VERSION >= 13000
  check(cudaGraphAddNode(node, graph, &dependency, nullptr, 1, &params), "cudaGraphAddNode (IF)");
#else
  check(cudaGraphAddNode(node, graph, &dependency, 1, &params), "cudaGraphAddNode (IF)");
#endif
  return std::vector<cudaGraph_t>(params.conditional.phGraph_out, params.conditional.phGraph_out + bodies);
}

}  // namespace

struct ConditionalGraph::State {
  std::vector<std::unique_ptr<at::cuda::CUDAGraph>> captures;  // kept: they own the pool's blocks
  std::vector<at::Tensor> decided_by;                          // the values the conditions read
  at::Tensor active;                                           // an exit chain's "no exit yet" flag
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  int conditional_nodes = 0;
  std::int64_t top_nodes = 0;
  std::int64_t piece_kernel_nodes = 0;
  double capture_ms = 0.0;

  ~State() {
    if (exec != nullptr) cudaGraphExecDestroy(exec);
    if (graph != nullptr) cudaGraphDestroy(graph);
  }

  // Captures `step` on its own into a kept graph of the shared pool; returns what it returned.
  at::Tensor capture(const std::function<at::Tensor()>& step) {
    auto g = std::make_unique<at::cuda::CUDAGraph>(/*keep_graph=*/true);
    const at::cuda::MempoolId_t pool = captures.empty() ? at::cuda::MempoolId_t{0, 0} : captures.front()->pool();
    g->capture_begin(pool, cudaStreamCaptureModeThreadLocal);
    at::Tensor value;
    try {
      value = step();
    } catch (...) {
      try {
        g->capture_end();
      } catch (...) {
      }
      throw;
    }
    g->capture_end();
    std::size_t count = 0;
    check(cudaGraphGetNodes(g->raw_cuda_graph(), nullptr, &count), "cudaGraphGetNodes");
    std::vector<cudaGraphNode_t> nodes(count);
    check(cudaGraphGetNodes(g->raw_cuda_graph(), nodes.data(), &count), "cudaGraphGetNodes");
    for (cudaGraphNode_t n : nodes) {
      cudaGraphNodeType type;
      check(cudaGraphNodeGetType(n, &type), "cudaGraphNodeGetType");
      if (type == cudaGraphNodeTypeKernel) ++piece_kernel_nodes;
    }
    captures.push_back(std::move(g));
    return value;
  }

  cudaGraphNode_t add_child(cudaGraph_t into, const cudaGraphNode_t* after, std::size_t index) {
    cudaGraphNode_t node;
    check(cudaGraphAddChildGraphNode(&node, into, after, after == nullptr ? 0 : 1, captures[index]->raw_cuda_graph()),
          "cudaGraphAddChildGraphNode");
    if (into == graph) ++top_nodes;
    return node;
  }

  void instantiate() {
    check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
    check(cudaGraphUpload(exec, at::cuda::getCurrentCUDAStream().stream()), "cudaGraphUpload");
  }
};

namespace {

at::Tensor one_float(const at::Tensor& value, const char* who) {
  if (!value.defined() || value.numel() != 1 || value.scalar_type() != at::kFloat || !value.is_cuda()) {
    throw EngineError(fmt::format("conditional graph: {} must return a one-element float32 CUDA tensor (the value "
                                  "the condition reads)",
                                  who));
  }
  return value.contiguous();
}

}  // namespace

std::unique_ptr<ConditionalGraph> ConditionalGraph::exit_chain(const std::vector<Piece>& pieces,
                                                               const std::vector<Decision>& exits) {
  if (pieces.empty()) throw EngineError("conditional graph: an exit chain needs at least one piece");
  if (exits.size() + 1 != pieces.size()) {
    throw EngineError(fmt::format("conditional graph: an exit chain of {} pieces takes {} decisions, not {}",
                                  pieces.size(), pieces.size() - 1, exits.size()));
  }
  const auto start = std::chrono::steady_clock::now();
  auto state = std::make_unique<State>();
  {
    const c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      at::Tensor value = state->capture(pieces[k]);
      if (k + 1 < pieces.size()) state->decided_by.push_back(one_float(value, "every piece but the last"));
    }
  }
  state->active = at::ones({1}, at::TensorOptions().dtype(at::kInt).device(at::kCUDA, c10::cuda::current_device()));
  check(cudaGraphCreate(&state->graph, 0), "cudaGraphCreate");
  cudaGraphNode_t last = state->add_child(state->graph, nullptr, 0);
  for (std::size_t k = 1; k < pieces.size(); ++k) {
    cudaGraphConditionalHandle handle;
    check(cudaGraphConditionalHandleCreate(&handle, state->graph, 0, 0), "cudaGraphConditionalHandleCreate");
    cudaGraphNode_t decide;
    check(add_exit_condition_node(&decide, state->graph, &last, 1, handle, state->decided_by[k - 1].data_ptr<float>(),
                                  state->active.data_ptr<int>(), static_cast<int>(exits[k - 1].compare),
                                  static_cast<float>(exits[k - 1].than), k == 1),
          "adding the exit condition's kernel");
    cudaGraphNode_t guard_node;
    const std::vector<cudaGraph_t> bodies = add_if_node(&guard_node, state->graph, decide, handle, 1);
    state->add_child(bodies[0], nullptr, k);
    state->top_nodes += 2;
    ++state->conditional_nodes;
    last = guard_node;
  }
  state->instantiate();
  state->capture_ms = ms_since(start);
  return std::unique_ptr<ConditionalGraph>(new ConditionalGraph(std::move(state)));
}

std::unique_ptr<ConditionalGraph> ConditionalGraph::branch(const Piece& prefix, const Step& then_step,
                                                           const Step& else_step, const Decision& decision) {
#if CUDART_VERSION < 12080
  (void)prefix;
  (void)then_step;
  (void)else_step;
  (void)decision;
  throw EngineError("conditional graph: an IF node with an ELSE body needs CUDA 12.8 or later");
#else
  const auto start = std::chrono::steady_clock::now();
  auto state = std::make_unique<State>();
  {
    const c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
    state->decided_by.push_back(one_float(state->capture(prefix), "the prefix"));
    state->capture([&] { then_step(); return at::Tensor(); });
    state->capture([&] { else_step(); return at::Tensor(); });
  }
  check(cudaGraphCreate(&state->graph, 0), "cudaGraphCreate");
  cudaGraphNode_t first = state->add_child(state->graph, nullptr, 0);
  cudaGraphConditionalHandle handle;
  check(cudaGraphConditionalHandleCreate(&handle, state->graph, 0, 0), "cudaGraphConditionalHandleCreate");
  cudaGraphNode_t decide;
  check(add_branch_condition_node(&decide, state->graph, &first, 1, handle, state->decided_by[0].data_ptr<float>(),
                                  static_cast<int>(decision.compare), static_cast<float>(decision.than)),
        "adding the branch condition's kernel");
  cudaGraphNode_t if_else;
  const std::vector<cudaGraph_t> bodies = add_if_node(&if_else, state->graph, decide, handle, 2);
  state->add_child(bodies[0], nullptr, 1);
  state->add_child(bodies[1], nullptr, 2);
  state->top_nodes += 2;
  state->conditional_nodes = 1;
  state->instantiate();
  state->capture_ms = ms_since(start);
  return std::unique_ptr<ConditionalGraph>(new ConditionalGraph(std::move(state)));
#endif
}

void ConditionalGraph::replay() {
  check(cudaGraphLaunch(state_->exec, at::cuda::getCurrentCUDAStream().stream()), "cudaGraphLaunch");
}

int ConditionalGraph::conditional_nodes() const { return state_->conditional_nodes; }
std::int64_t ConditionalGraph::body_kernel_nodes() const { return state_->piece_kernel_nodes; }

GraphFacts ConditionalGraph::facts() const {
  GraphFacts f;
  f.nodes = state_->top_nodes;
  // Not kernel_nodes: only the bodies the conditions pick run, so the kernels of a replay are not
  // the graph's (the kernels inside all bodies: body_kernel_nodes()).
  return f;
}

double ConditionalGraph::capture_ms() const { return state_->capture_ms; }

std::string conditional_nodes_unavailable() { return ""; }

#else  // no conditional nodes in this build

struct ConditionalGraph::State {};

std::string conditional_nodes_unavailable() {
#ifdef GRAPHBENCH_WITH_CUDA
  return "CUDA graphs' conditional nodes need CUDA 12.4 or later (this build's CUDA runtime is older)";
#else
  return "CUDA graphs' conditional nodes need a CUDA build (this LibTorch has no CUDA)";
#endif
}

std::unique_ptr<ConditionalGraph> ConditionalGraph::exit_chain(const std::vector<Piece>&, const std::vector<Decision>&) {
  throw EngineError(conditional_nodes_unavailable());
}

std::unique_ptr<ConditionalGraph> ConditionalGraph::branch(const Piece&, const Step&, const Step&, const Decision&) {
  throw EngineError(conditional_nodes_unavailable());
}

void ConditionalGraph::replay() { throw EngineError(conditional_nodes_unavailable()); }
int ConditionalGraph::conditional_nodes() const { return 0; }
std::int64_t ConditionalGraph::body_kernel_nodes() const { return 0; }
GraphFacts ConditionalGraph::facts() const { return {}; }
double ConditionalGraph::capture_ms() const { return 0.0; }

#endif

ConditionalGraph::Compare ConditionalGraph::compare_from_text(const std::string& text) {
  if (text == ">") return Compare::kGreater;
  if (text == ">=") return Compare::kGreaterEqual;
  if (text == "<") return Compare::kLess;
  if (text == "<=") return Compare::kLessEqual;
  throw EngineError(fmt::format("conditional graph: no comparison \"{}\" (expected >, >=, < or <=)", text));
}

ConditionalGraph::Decision ConditionalGraph::negated(const Decision& d) {
  switch (d.compare) {
    case Compare::kGreater: return {Compare::kLessEqual, d.than};
    case Compare::kGreaterEqual: return {Compare::kLess, d.than};
    case Compare::kLess: return {Compare::kGreaterEqual, d.than};
    case Compare::kLessEqual: return {Compare::kGreater, d.than};
  }
  return d;
}

std::unique_ptr<ConditionalGraph> ConditionalGraph::exit_chain(const std::vector<Piece>& pieces, double threshold) {
  return exit_chain(pieces, std::vector<Decision>(pieces.empty() ? 0 : pieces.size() - 1,
                                                  Decision{Compare::kGreater, threshold}));
}

ConditionalGraph::ConditionalGraph(std::unique_ptr<State> state) : state_(std::move(state)) {}
ConditionalGraph::~ConditionalGraph() = default;

}  // namespace graphbench
