// A capture scope (core/workload/capture_scope.h) applied to a program: the program's ops cut into
// segments, each captured as a CUDA graph of its own or run eagerly between the graphs. See
// docs/scopes.md (how the engine captures a scope).
//
// The rules, by scope, over the ops' tags (op_tag.h):
//   full            one captured segment: the whole step
//   layer           each maximal run of ops of one layer (>= 0) captured; ops of layer -1 eager
//   attention-out   maximal runs of non-attention ops captured; attention ops eager
//   modules=REGEX   maximal runs of ops whose module matches (std::regex_search) captured
//   auto            maximal runs of capturable ops captured; ops with capturable=false eager
//   fwd-bwd         the ops that are not the optimizer's captured; the optimizer's eager
// Adjacent eager ops make one segment; no segment is empty.
//
// Programs that train: autograd ties the ops it records (the forward, from the values the backward
// op differentiates) to the backward op, and a graph replays its kernels, not autograd: a backward
// captured in one graph reads what the forward's graph saved, at the pointers of its capture. So
// the tied ops are captured all or run eagerly all. Where a scope leaves some of them eager only
// because it does not pick them (layer: the loss between the layers and the backward op;
// modules: the unmatched ones), they are captured too, in segments of their own; where one of
// them must run eagerly (auto: not capturable; attention-out: attention), they all run eagerly.
#pragma once

#include "graphbench/engine/plan/op_tag.h"
#include "graphbench/engine/plan/program.h"
#include "graphbench/core/workload/capture_scope.h"

#include <cstddef>
#include <string>
#include <vector>

namespace graphbench {

struct Segment {
  std::size_t first_op = 0;
  std::size_t end_op = 0;  // exclusive
  bool captured = false;
  std::string name;  // "layer 3", "between attention 2 and 3", "optimizer (eager)"

  std::size_t size() const { return end_op - first_op; }
  bool operator==(const Segment& other) const {
    return first_op == other.first_op && end_op == other.end_op && captured == other.captured && name == other.name;
  }
};

// What splitting reads of one op.
struct SplitOp {
  OpTag tag;
  bool tied_by_autograd = false;  // recorded by autograd for a backward op, or that backward op
  std::string label;              // "#3 relu", for names and messages
};

// The ops of `program` as splitting reads them.
std::vector<SplitOp> split_ops(const Program& program);

// Cuts the ops into segments. Throws InputError naming the scope and `program_name` when the
// scope captures none of the ops (saying which tags the program lacks).
std::vector<Segment> split_into_segments(const std::vector<SplitOp>& ops, const CaptureScope& scope,
                                         const std::string& program_name);

// split_into_segments(split_ops(program), scope, program.name()).
std::vector<Segment> split_into_segments(const Program& program, const CaptureScope& scope);

// The number of captured segments.
int captured_count(const std::vector<Segment>& segments);

}  // namespace graphbench
