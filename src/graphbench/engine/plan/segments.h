// A capture scope (core/workload/capture_scope.h) applied to a program: its ops cut into segments,
// each captured as a graph or run eagerly between them (docs/scopes.md). By scope, over op tags:
//   full            one captured segment: the whole step
//   layer           each maximal run of ops of one layer (>= 0) captured; ops of layer -1 eager
//   attention-out   maximal runs of non-attention ops captured; attention ops eager
//   modules=REGEX   maximal runs of ops whose module matches (std::regex_search) captured
//   auto            maximal runs of capturable ops captured; ops with capturable=false eager
//   fwd-bwd         the ops that are not the optimizer's captured; the optimizer's eager
// Adjacent eager ops make one segment; none is empty. Training: a captured backward reads what the
// forward's graph saved at its capture's pointers, so the ops autograd ties to the backward op are
// captured all (in segments of their own where the scope merely does not pick them) or, where one
// must run eagerly, all eager.
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

// Cuts the ops into segments; InputError where the scope captures none (naming the missing tags).
std::vector<Segment> split_into_segments(const std::vector<SplitOp>& ops, const CaptureScope& scope,
                                         const std::string& program_name);

// split_into_segments(split_ops(program), scope, program.name()).
std::vector<Segment> split_into_segments(const Program& program, const CaptureScope& scope);

// The number of captured segments.
int captured_count(const std::vector<Segment>& segments);

}  // namespace graphbench
