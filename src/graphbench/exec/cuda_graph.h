// One captured CUDA graph of a SlotBinding. The header is CUDA-free; in a build without CUDA,
// capture() throws EngineError.
// See docs/design.md (capture, and when a capture fails).
#pragma once

#include "graphbench/exec/counters.h"
#include "graphbench/exec/slot_binding.h"
#include "graphbench/record/graph_facts.h"

#include <memory>

namespace graphbench {

class CapturedGraph {
 public:
  // Warms `binding` up on a side stream (warm_up: params and state restored afterwards), then
  // captures one run of its ops on another non-default stream in thread-local capture mode, with
  // CUDA's sync-debug mode set to "error": an op that synchronises with the host throws, and the
  // error names it (FailedOpTrace). Inside the capture, the binding's internal buffers are
  // allocated afresh, from the graph's private pool (SlotBinding::allocate_internal_buffers). On
  // failure the capture is ended, the buffers are allocated again outside it, and CaptureError
  // says why.
  static std::unique_ptr<CapturedGraph> capture(SlotBinding& binding, int warmup_steps, Counters& counters);

  ~CapturedGraph();
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  // Replays on the current stream.
  void replay();
  // Capture and instantiation time, host wall clock, device synchronised before and after.
  double capture_ms() const;
  // The warm-up steps before the capture, host wall clock, their stream synchronised.
  double warmup_ms() const;
  // Its kernel nodes and its private pool, read once after capture.
  const GraphFacts& facts() const;

 private:
  struct Impl;
  explicit CapturedGraph(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace graphbench
