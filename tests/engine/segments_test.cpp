// Capture scopes applied to programs (engine/plan/segments.h): every split rule on given tag lists, the
// training rule that keeps autograd's ops on one side, and the error for a scope that captures
// nothing.
#include "engine/segment_programs.h"
#include "graphbench/engine/plan/segments.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

using namespace graphbench;
using namespace graphbench::test_util;

namespace {

// "layer 0 [#0..#3) captured, outside the layers [#4..#5) eager, ...".
std::string describe(const std::vector<Segment>& segments) {
  std::vector<std::string> parts;
  for (const Segment& s : segments) {
    parts.push_back(fmt::format("{} [#{}..#{}) {}", s.name, s.first_op, s.end_op, s.captured ? "captured" : "eager"));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

SplitOp op_with(OpTag tag, bool tied = false) {
  SplitOp op;
  op.tag = std::move(tag);
  op.tied_by_autograd = tied;
  return op;
}

SplitOp in_layer(int layer, bool tied = false) {
  OpTag tag;
  tag.layer = layer;
  return op_with(tag, tied);
}

SplitOp attention(bool is_attention) {
  OpTag tag;
  tag.attention = is_attention;
  return op_with(tag);
}

SplitOp in_module(const std::string& module) {
  OpTag tag;
  tag.module = module;
  return op_with(tag);
}

SplitOp capturable(bool can, const std::string& reason = "", bool tied = false) {
  OpTag tag;
  tag.capturable = can;
  tag.uncapturable_reason = reason;
  return op_with(tag, tied);
}

SplitOp optimizer(bool is_optimizer, bool tied = false) {
  OpTag tag;
  tag.optimizer = is_optimizer;
  return op_with(tag, tied);
}

CaptureScope scope(const std::string& text) { return parse_capture_scope(text, "test"); }

Segment seg(std::size_t first, std::size_t end, bool captured, const std::string& name) {
  return Segment{first, end, captured, name};
}

std::string input_error_of(const std::function<void()>& f) { return testing::message_of<InputError>(f); }

}  // namespace

TEST_CASE("segments: full is one captured segment, the whole step", "[engine][scope]") {
  const std::vector<SplitOp> ops{in_layer(0), attention(true), optimizer(true)};
  const auto segments = split_into_segments(ops, scope("full"), "p");
  REQUIRE(segments.size() == 1);
  CHECK(segments[0] == seg(0, 3, true, "whole step"));
  CHECK(captured_count(segments) == 1);
}

TEST_CASE("segments: layer captures each run of one layer, ops outside layers run eagerly", "[engine][scope]") {
  const std::vector<SplitOp> ops{in_layer(-1), in_layer(0), in_layer(0), in_layer(1), in_layer(1),
                                 in_layer(-1), in_layer(-1), in_layer(2)};
  const auto segments = split_into_segments(ops, scope("layer"), "p");
  const std::vector<Segment> expected{seg(0, 1, false, "before layer 0 (eager)"), seg(1, 3, true, "layer 0"),
                                      seg(3, 5, true, "layer 1"), seg(5, 7, false, "between layer 1 and 2 (eager)"),
                                      seg(7, 8, true, "layer 2")};
  CHECK(segments == expected);
  CHECK(captured_count(segments) == 3);
  INFO(describe(segments));
  CHECK(describe(segments).find("layer 1 [#3..#5) captured") != std::string::npos);
}

TEST_CASE("segments: attention-out captures the pieces between attention ops", "[engine][scope]") {
  const std::vector<SplitOp> ops{attention(false), attention(true), attention(true), attention(false),
                                 attention(false), attention(true), attention(false)};
  const auto segments = split_into_segments(ops, scope("attention-out"), "p");
  const std::vector<Segment> expected{seg(0, 1, true, "before attention 0"), seg(1, 3, false, "attention 0 (eager)"),
                                      seg(3, 5, true, "between attention 0 and 1"),
                                      seg(5, 6, false, "attention 1 (eager)"), seg(6, 7, true, "after attention 1")};
  CHECK(segments == expected);
}

TEST_CASE("segments: modules=REGEX captures the runs of matching modules", "[engine][scope]") {
  const std::vector<SplitOp> ops{in_module("embed"), in_module("layers.0.attn"), in_module("layers.0.attn"),
                                 in_module("layers.0.norm"), in_module("layers.0.mlp"), in_module("layers.1.mlp"),
                                 in_module("")};
  const auto segments = split_into_segments(ops, scope("modules=attn|mlp"), "p");
  const std::vector<Segment> expected{seg(0, 1, false, "op #0 (eager)"), seg(1, 3, true, "layers.0.attn"),
                                      seg(3, 4, false, "op #3 (eager)"),
                                      seg(4, 6, true, "layers.0.mlp .. layers.1.mlp"),
                                      seg(6, 7, false, "op #6 (eager)")};
  CHECK(segments == expected);
}

TEST_CASE("segments: auto captures around the ops that cannot be captured", "[engine][scope]") {
  const std::vector<SplitOp> ops{capturable(true), capturable(true), capturable(false, "reads .item()"),
                                 capturable(true), capturable(false, "data-dependent shape"), capturable(false)};
  const auto segments = split_into_segments(ops, scope("auto"), "p");
  const std::vector<Segment> expected{seg(0, 2, true, "ops #0..#1"), seg(2, 3, false, "op #2 (eager: reads .item())"),
                                      seg(3, 4, true, "op #3"),
                                      seg(4, 6, false, "ops #4..#5 (eager: data-dependent shape)")};
  CHECK(segments == expected);
  // Nothing to run eagerly: the whole step in one graph.
  const auto whole = split_into_segments({capturable(true), capturable(true)}, scope("auto"), "p");
  CHECK(whole == std::vector<Segment>{seg(0, 2, true, "ops #0..#1")});
}

TEST_CASE("segments: fwd-bwd captures forward and backward, the optimizer runs eagerly", "[engine][scope]") {
  const std::vector<SplitOp> ops{optimizer(false, true), optimizer(false, true), optimizer(false, true),
                                 optimizer(true), optimizer(true)};
  const auto segments = split_into_segments(ops, scope("fwd-bwd"), "p");
  const std::vector<Segment> expected{seg(0, 3, true, "forward and backward"), seg(3, 5, false, "optimizer (eager)")};
  CHECK(segments == expected);
}

TEST_CASE("segments: a training step's autograd ops are captured all or run eagerly all", "[engine][scope][train]") {
  // layer 0, layer 1 (the forward), loss and backward outside any layer, then the optimizer.
  const std::vector<SplitOp> ops{in_layer(0, true), in_layer(0, true), in_layer(1, true),
                                 in_layer(-1, true), in_layer(-1, true), in_layer(-1, false)};
  SECTION("layer: the loss and the backward op are captured too, in a segment of their own") {
    const auto segments = split_into_segments(ops, scope("layer"), "p");
    const std::vector<Segment> expected{seg(0, 2, true, "layer 0"), seg(2, 3, true, "layer 1"),
                                        seg(3, 5, true, "after layer 1"), seg(5, 6, false, "after layer 1 (eager)")};
    CHECK(segments == expected);
  }
  SECTION("auto: one tied op that cannot be captured makes them all eager") {
    const std::vector<SplitOp> with_sync{capturable(true, "", true), capturable(false, "reads .item()", true),
                                         capturable(true, "", true), capturable(true, "", false)};
    const auto segments = split_into_segments(with_sync, scope("auto"), "p");
    const std::vector<Segment> expected{seg(0, 3, false, "ops #0..#2 (eager: tied by autograd to an op that cannot be captured)"),
                                        seg(3, 4, true, "op #3")};
    CHECK(segments == expected);
  }
  SECTION("an untied op that cannot be captured splits nothing that autograd ties") {
    const std::vector<SplitOp> with_sync{capturable(false, "reads .item()"), capturable(true, "", true),
                                         capturable(true, "", true), capturable(true)};
    const auto segments = split_into_segments(with_sync, scope("auto"), "p");
    const std::vector<Segment> expected{seg(0, 1, false, "op #0 (eager: reads .item())"), seg(1, 4, true, "ops #1..#3")};
    CHECK(segments == expected);
  }
}

TEST_CASE("segments: a scope that captures nothing is an input error naming the scope, program and tags",
          "[engine][scope][errors]") {
  const std::vector<SplitOp> untagged{in_module(""), in_module("")};
  const std::string layer = input_error_of([&] { split_into_segments(untagged, scope("layer"), "gelu"); });
  CHECK_THAT(layer, GB_CONTAINS("capture scope \"layer\" captures nothing in program \"gelu\""));
  CHECK_THAT(layer, GB_CONTAINS("none of its 2 ops belongs to a layer (OpTag::layer >= 0)"));

  const std::vector<SplitOp> modules{in_module("fc1"), in_module("fc2")};
  const std::string regex = input_error_of([&] { split_into_segments(modules, scope("modules=attn"), "mlp"); });
  CHECK_THAT(regex, GB_CONTAINS("capture scope \"modules=attn\" captures nothing in program \"mlp\""));
  CHECK_THAT(regex, GB_CONTAINS("no op's module matches \"attn\" (its modules: fc1, fc2)"));
  CHECK_THAT(input_error_of([&] { split_into_segments(untagged, scope("modules=attn"), "mlp"); }),
             GB_CONTAINS("none of its ops names a module"));

  CHECK_THAT(input_error_of([&] { split_into_segments({attention(true)}, scope("attention-out"), "a"); }),
             GB_CONTAINS("all of its 1 ops are attention ops"));
  CHECK_THAT(input_error_of([&] { split_into_segments({capturable(false)}, scope("auto"), "a"); }),
             GB_CONTAINS("none of its 1 ops is capturable"));
  CHECK_THAT(input_error_of([&] { split_into_segments({optimizer(true)}, scope("fwd-bwd"), "a"); }),
             GB_CONTAINS("all of its 1 ops are the optimizer's"));
  CHECK_THAT(input_error_of([&] { split_into_segments({}, scope("full"), "empty"); }),
             GB_CONTAINS("\"empty\": the program has no ops"));
  // Autograd's ops all eager, and nothing else to capture.
  CHECK_THAT(input_error_of([&] {
               split_into_segments({capturable(false, "", true), capturable(true, "", true)}, scope("auto"), "t");
             }),
             GB_CONTAINS("autograd ties its forward to the backward op"));
}

TEST_CASE("segments: split_ops reads the builder's tags and which ops autograd ties", "[engine][scope][train]") {
  TaggedMlp m;
  const auto ops = split_ops(*tagged_training(m));
  // prescale, fc1, act, fc2, mse, backward, then the optimizer's op(s).
  REQUIRE(ops.size() >= 7);
  CHECK(ops[0].tag.module == "prescale");
  CHECK_FALSE(ops[0].tied_by_autograd);  // reads the input only
  CHECK(ops[1].tag.module == "layers.0.fc1");
  CHECK(ops[1].tag.layer == 0);
  CHECK(ops[2].tag.attention);
  CHECK(ops[3].tag.layer == 1);
  for (std::size_t i = 1; i <= 5; ++i) {
    CAPTURE(i);
    CHECK(ops[i].tied_by_autograd);
  }
  CHECK_THAT(ops[5].label, GB_CONTAINS("#5 backward"));
  for (std::size_t i = 6; i < ops.size(); ++i) {
    CAPTURE(i);
    CHECK(ops[i].tag.optimizer);
    CHECK_FALSE(ops[i].tied_by_autograd);
  }
  const auto inference = split_ops(*tagged_inference(m));
  for (const SplitOp& op : inference) CHECK_FALSE(op.tied_by_autograd);
}

// The contract with the Python peers (python/graphbench/pieces.py's segments, which
// tests/python/test_segments.py checks against the same file): the tags of each golden case cut
// into its segments, [first, end, captured].
TEST_CASE("segments: the golden cases that the Python side shares (tests/golden/segments.json)", "[engine][scope]") {
  std::ifstream in(testing::golden_path("segments.json"));
  REQUIRE(in.good());
  const auto golden = nlohmann::json::parse(in);
  REQUIRE(golden.at("cases").size() >= 5);
  for (const auto& c : golden.at("cases")) {
    INFO(c.at("name").get<std::string>());
    std::vector<SplitOp> ops;
    for (const auto& t : c.at("tags")) {
      OpTag tag;
      tag.layer = t.value("layer", -1);
      tag.attention = t.value("attention", false);
      tag.capturable = t.value("capturable", true);
      tag.module = t.value("module", std::string());
      ops.push_back(op_with(tag, c.at("train").get<bool>()));
    }
    nlohmann::json got = nlohmann::json::array();
    for (const Segment& s : split_into_segments(ops, scope(c.at("scope").get<std::string>()), "golden")) {
      got.push_back({s.first_op, s.end_op, s.captured});
    }
    CHECK(got == c.at("segments"));
  }
}
