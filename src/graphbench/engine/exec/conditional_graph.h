// A step with data-dependent control flow replayed as ONE CUDA graph: the device picks the pieces
// through conditional nodes (CUDA 12.4: IF; 12.8: IF/ELSE), no host sync. Pieces (LibTorch ops on the
// current stream; warmed up first) are captured in one pool, assembled as child graphs, each node
// after a one-thread kernel setting its condition (condition_kernels.h). Without CUDA 12.4: EngineError.
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

  // Early exits: pieces[k] (k >= 1) runs while no earlier piece's value (one float) met its decision,
  // exits[k - 1] deciding after pieces[k - 1]. One IF node per later piece.
  static std::unique_ptr<ConditionalGraph> exit_chain(const std::vector<Piece>& pieces,
                                                      const std::vector<Decision>& exits);
  // The same, every exit taken where its value is above `threshold` (a confidence).
  static std::unique_ptr<ConditionalGraph> exit_chain(const std::vector<Piece>& pieces, double threshold);

  // `prefix` returns the deciding value; `then_step` runs where `decision` holds, else `else_step`.
  static std::unique_ptr<ConditionalGraph> branch(const Piece& prefix, const Step& then_step, const Step& else_step,
                                                  const Decision& decision);

  ~ConditionalGraph();

  void replay();  // on the current CUDA stream

  int conditional_nodes() const;
  // The kernel nodes of all the pieces, taken or not.
  std::int64_t body_kernel_nodes() const;
  // The top-level nodes; no kernel count (a replay runs only the bodies its conditions pick).
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
