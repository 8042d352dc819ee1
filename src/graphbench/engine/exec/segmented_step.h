// One step cut into segments (engine/plan/segments.h) over a SlotBinding: what the static executor runs
// on the CPU and the graph executor replays, so that the crossing logic is the same in both.
//
// Crossing buffers: a value that an eager segment makes and a later captured segment reads must
// sit where the graph read it at capture, but an eager op that allocates makes it afresh each
// step. So each such value gets a fixed buffer, made the first time its segment runs; after every
// run of the segment the value is copied into it (skipped when the op computed into it already)
// and the slot holds the fixed buffer again. Values a captured segment makes live in its graph's
// memory and stay put; an eager segment reads them in place. A value autograd tracks (a loss read
// after the backward op, say) keeps its history in its slot for the eager ops after it: the fixed
// buffer gets a copy, and the slot holds the fixed buffer only while a captured segment that
// reads it runs or is captured (CapturedView).
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/engine/exec/counters.h"
#include "graphbench/engine/exec/slot_binding.h"
#include "graphbench/engine/plan/segments.h"

#include <utility>
#include <vector>

namespace graphbench {

class SegmentedStep {
 public:
  SegmentedStep(SlotBinding& binding, std::vector<Segment> segments);

  const std::vector<Segment>& segments() const { return segments_; }
  SlotBinding& binding() { return binding_; }

  // Runs the ops of eager segment `index`, then moves the values it hands to later captured
  // segments into their fixed buffers.
  void run_eager(std::size_t index, Counters& counters);
  // Runs the ops of segment `index` directly, whatever it is (a captured segment on the CPU).
  void run_ops(std::size_t index);
  // Every segment in order, the captured ones run directly, then end_step (the static executor).
  void run_all(Counters& counters);
  // The end of a step: the step's autograd graph let go (SlotBinding::end_step).
  void end_step() { binding_.end_step(); }

  // While alive, the slots captured segment `index` reads through fixed buffers hold those buffers
  // (see above); put back when it ends. Around a capture, and the static executor's direct runs.
  class CapturedView : NonCopyable {
   public:
    CapturedView(SegmentedStep& step, std::size_t index);
    ~CapturedView();

   private:
    SegmentedStep& step_;
    std::vector<std::pair<int, at::Tensor>> held_;
  };

 private:
  SlotBinding& binding_;
  std::vector<Segment> segments_;
  std::vector<std::vector<int>> crossing_;  // per segment: the slots it hands on
  std::vector<std::vector<int>> reads_;     // per captured segment: the crossing slots it reads
  std::vector<at::Tensor> fixed_;           // per slot
};

}  // namespace graphbench
