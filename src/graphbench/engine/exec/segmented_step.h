// One step cut into segments over a SlotBinding, alike for the static and the graph executor. A value
// an eager segment makes and a captured one reads is copied into a fixed buffer after each run (the
// graph reads where it did at capture); one autograd tracks keeps its slot, the buffer standing in
// only while a captured segment reading it runs (CapturedView).
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

  // Runs eager segment `index`, then moves what it hands on into the fixed buffers.
  void run_eager(std::size_t index, Counters& counters);
  // Runs the ops of segment `index` directly, whatever it is (a captured segment on the CPU).
  void run_ops(std::size_t index);
  // Every segment in order, the captured ones run directly, then end_step (the static executor).
  void run_all(Counters& counters);
  // The end of a step: the step's autograd graph let go (SlotBinding::end_step).
  void end_step() { binding_.end_step(); }

  // While alive, the slots captured segment `index` reads hold their fixed buffers.
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
