// The decisions a conditional graph's nodes take on the device (engine/exec/conditional_graph.h):
// read from the branch tree's text, and negated for an exit taken on a branch's else side.
#include "support/catch.h"
#include "support/error_of.h"

#include "graphbench/engine/exec/conditional_graph.h"

using graphbench::ConditionalGraph;

TEST_CASE("conditional decisions: the four comparisons read, negated into their complements, others refused") {
  using C = ConditionalGraph::Compare;
  CHECK(ConditionalGraph::compare_from_text(">") == C::kGreater);
  CHECK(ConditionalGraph::compare_from_text(">=") == C::kGreaterEqual);
  CHECK(ConditionalGraph::compare_from_text("<") == C::kLess);
  CHECK(ConditionalGraph::compare_from_text("<=") == C::kLessEqual);
  CHECK_THAT(graphbench::testing::message_of<graphbench::EngineError>([] { ConditionalGraph::compare_from_text("=="); }),
             Catch::Contains("no comparison \"==\" (expected >, >=, < or <=)"));
  // Where v > t does not hold, v <= t does; and so on, the number kept.
  CHECK(ConditionalGraph::negated({C::kGreater, 0.5}).compare == C::kLessEqual);
  CHECK(ConditionalGraph::negated({C::kGreaterEqual, 0.5}).compare == C::kLess);
  CHECK(ConditionalGraph::negated({C::kLess, 0.5}).compare == C::kGreaterEqual);
  CHECK(ConditionalGraph::negated({C::kLessEqual, 0.5}).compare == C::kGreater);
  CHECK(ConditionalGraph::negated({C::kLess, 0.5}).than == 0.5);
}
