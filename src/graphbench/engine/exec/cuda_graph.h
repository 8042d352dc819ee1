// One captured CUDA graph of a SlotBinding (docs/design.md); without CUDA, capture() throws EngineError.
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

// A segment's capture failed; op_index(): the op running then, where known.
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
  // Warms `binding` up on a side stream, then captures one run on another (thread-local mode) with
  // CUDA's sync-debug mode at "error", so an op that syncs throws and is named (FailedOpTrace). The
  // internal buffers are allocated afresh inside, from the graph's pool. On failure the capture is
  // ended, the buffers allocated again outside it, and CaptureError says why.
  static std::unique_ptr<CapturedGraph> capture(SlotBinding& binding, int warmup_steps, Counters& counters);

  // The warm-up capture() begins with (on a side stream, undone afterwards); returns its time.
  static double warm_up_aside(SlotBinding& binding, int warmup_steps, Counters& counters);

  // The graphs of a segmented step: one per captured segment, null for the eager ones.
  struct Segments {
    std::vector<std::unique_ptr<CapturedGraph>> graphs;
    double capture_ms = 0.0;  // the captures summed (the eager segments between them not included)
  };
  // After warm_up_aside, walks the segments in order on one stream (a backward runs on its forward's
  // stream): each captured segment captured and replayed once, each eager one run, so every capture
  // sees real inputs. One pool for all (pool_for_capture) unless `pool_per_graph`. Params, state and
  // generators are put back afterwards; a failure is undone and SegmentCaptureError names the op.
  static Segments capture_segments(SegmentedStep& step, bool pool_per_graph, Counters& counters);

  ~CapturedGraph();

  // Replays on the current stream.
  void replay();
  double capture_ms() const;  // capture and instantiation, device synchronised before and after
  double warmup_ms() const;   // the warm-up steps before it
  // Its kernel nodes and its private pool, read once after capture.
  const GraphFacts& facts() const;

 private:
  struct Impl;
  explicit CapturedGraph(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace graphbench
