// One captured CUDA graph of a SlotBinding. The header is CUDA-free; in a build without CUDA,
// capture() throws EngineError.
// See docs/design.md (capture, and when a capture fails).
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/core/base/errors.h"
#include "graphbench/engine/exec/counters.h"
#include "graphbench/engine/exec/segmented_step.h"
#include "graphbench/engine/exec/slot_binding.h"
#include "graphbench/core/record/graph_facts.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// A segment's capture failed (CapturedGraph::capture_segments). op_index(): the op that was running
// when it failed, where known (a capture invalidated only at its end names none).
class SegmentCaptureError : public CaptureError {
 public:
  SegmentCaptureError(const std::string& what, std::optional<std::size_t> op_index)
      : CaptureError(what), op_index_(op_index) {}
  std::optional<std::size_t> op_index() const { return op_index_; }

 private:
  std::optional<std::size_t> op_index_;
};

class CapturedGraph : NonCopyable {
 public:
  // Warms `binding` up on a side stream (warm_up: params and state restored afterwards), then
  // captures one run of its ops on another non-default stream in thread-local capture mode, with
  // CUDA's sync-debug mode set to "error": an op that synchronises with the host throws, and the
  // error names it (FailedOpTrace). Inside the capture, the binding's internal buffers are
  // allocated afresh, from the graph's private pool (SlotBinding::allocate_internal_buffers). On
  // failure the capture is ended, the buffers are allocated again outside it, and CaptureError
  // says why.
  static std::unique_ptr<CapturedGraph> capture(SlotBinding& binding, int warmup_steps, Counters& counters);

  // The warm-up capture() begins with (on a side stream, undone afterwards); returns its time.
  static double warm_up_aside(SlotBinding& binding, int warmup_steps, Counters& counters);

  // The graphs of a segmented step: one per captured segment, null for the eager ones.
  struct Segments {
    std::vector<std::unique_ptr<CapturedGraph>> graphs;
    double capture_ms = 0.0;  // the captures summed (the eager segments between them not included)
  };
  // After warm_up_aside (the caller's, once: auto may capture a step several times), walks the
  // segments in order on one capture stream (a backward op runs its kernels on the stream its forward ran on, so a backward
  // captured after its forward must be captured on the same stream): a captured segment is
  // captured (its values allocated afresh in the pool) and replayed once, an eager one is run
  // (SegmentedStep::run_eager, its crossing copies made), so that every capture sees real inputs.
  // The graphs share one pool (pool_for_capture: the thread's SharedGraphPool, else a new one),
  // or each has its own with `pool_per_graph`. The eager runs and replays of this walk really
  // update params and state: they are put back afterwards, with the random generators, so the
  // first step is step 1 (as after warm-up). On a failed capture everything is ended and undone
  // and SegmentCaptureError says which segment and op.
  static Segments capture_segments(SegmentedStep& step, bool pool_per_graph, Counters& counters);

  ~CapturedGraph();

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
