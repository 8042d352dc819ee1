// A step with data-dependent control flow replayed as ONE CUDA graph: the device decides which
// pieces run, through the graph's conditional nodes (CUDA 12.4: IF; 12.8: IF with an ELSE body), so
// a step needs no host synchronisation where eager code, or a graph broken at the branch, reads a
// value back to decide.
//
// How it is built: each piece is captured on its own (at::cuda::CUDAGraph, its graph kept, all
// pieces in one memory pool, so that values one piece leaves for the next stay where they are),
// then the pieces are assembled into one graph as child graphs, a kernel of one thread before each
// conditional node sets its condition from a value on the device (condition_kernels.h), and the
// conditional node holds the piece (or pieces) it guards. The header is CUDA-free; in a build
// without CUDA, or with a CUDA older than 12.4, making one throws EngineError saying why.
//
// Pieces are functions that run LibTorch ops on the current stream. They read and write tensors
// the caller keeps (inputs, outputs copied into fixed buffers with copy_); a tensor a piece returns
// (the value a decision reads) is kept by the graph. Warm each piece up before (cuBLAS handles,
// kernel loading): captures must not be the first calls.
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/core/record/graph_facts.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace graphbench {

class ConditionalGraph : NonCopyable {
 public:
  using Piece = std::function<at::Tensor()>;  // returns the value a decision reads (one float), or undefined
  using Step = std::function<void()>;

  // What the device decides from a value: whether `value compare than` holds.
  enum class Compare { kGreater, kGreaterEqual, kLess, kLessEqual };
  struct Decision {
    Compare compare = Compare::kGreater;
    double than = 0.0;
  };
  // ">", ">=", "<", "<=" (anything else: EngineError), and the decision that holds where `d` does not.
  static Compare compare_from_text(const std::string& text);
  static Decision negated(const Decision& d);

  // Early exits: pieces[0] always runs; pieces[k] (k >= 1) runs only while no earlier piece's value
  // (a one-element float tensor) met its decision: exits[k - 1] decides after pieces[k - 1] (one
  // fewer than the pieces). One IF node per later piece.
  static std::unique_ptr<ConditionalGraph> exit_chain(const std::vector<Piece>& pieces,
                                                      const std::vector<Decision>& exits);
  // The same, every exit taken where its value is above `threshold` (a confidence).
  static std::unique_ptr<ConditionalGraph> exit_chain(const std::vector<Piece>& pieces, double threshold);

  // A branch: `prefix` runs and returns the value that decides; `then_step` runs where `decision`
  // holds, `else_step` otherwise (one IF node with an ELSE body: CUDA 12.8).
  static std::unique_ptr<ConditionalGraph> branch(const Piece& prefix, const Step& then_step, const Step& else_step,
                                                  const Decision& decision);

  ~ConditionalGraph();

  void replay();  // on the current CUDA stream

  int conditional_nodes() const;
  // The kernel nodes of all the pieces, taken or not.
  std::int64_t body_kernel_nodes() const;
  // The assembled graph: its nodes at the top level (child graphs, condition kernels, conditional
  // nodes). No kernel count: a replay runs only the bodies its conditions pick.
  GraphFacts facts() const;
  double capture_ms() const;  // the pieces' captures and the assembly

  struct State;  // conditional_graph.cpp

 private:
  explicit ConditionalGraph(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// Why conditional nodes cannot be used in this build ("" where they can).
std::string conditional_nodes_unavailable();

}  // namespace graphbench
