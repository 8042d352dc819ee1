// Tests of the capture scope's names and their errors (core/workload/capture_scope.h).
#include "support/catch.h"
#include "support/error_of.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/workload/capture_scope.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

using graphbench::CaptureScope;
using graphbench::InputError;
using graphbench::parse_capture_scope;
using graphbench::ScopeKind;

TEST_CASE("capture scope: every named scope reads back as itself", "[scope]") {
  for (const char* name : {"full", "layer", "attention-out", "auto", "fwd-bwd"}) {
    const CaptureScope scope = parse_capture_scope(name, "suite.json: cases[0].scope");
    CHECK(scope.to_string() == name);
    CHECK(scope.modules_regex.empty());
  }
  CHECK(parse_capture_scope("full", "x").is_full());
  CHECK(parse_capture_scope("layer", "x").kind == ScopeKind::kLayer);
  CHECK(parse_capture_scope("attention-out", "x").kind == ScopeKind::kAttentionOut);
  CHECK(parse_capture_scope("fwd-bwd", "x").kind == ScopeKind::kForwardBackward);
}

TEST_CASE("capture scope: modules=REGEX keeps its regex", "[scope]") {
  const CaptureScope scope = parse_capture_scope("modules=self_attn|mlp", "x");
  CHECK(scope.kind == ScopeKind::kModules);
  CHECK(scope.modules_regex == "self_attn|mlp");
  CHECK(scope.to_string() == "modules=self_attn|mlp");
  CHECK(scope == parse_capture_scope(scope.to_string(), "x"));
  CHECK(scope != parse_capture_scope("modules=mlp", "x"));
}

TEST_CASE("capture scope: :pool-each gives each graph a pool of its own", "[scope]") {
  const CaptureScope layer = parse_capture_scope("layer:pool-each", "x");
  CHECK(layer.kind == ScopeKind::kLayer);
  CHECK(layer.pool_per_graph);
  CHECK(layer.to_string() == "layer:pool-each");
  CHECK(layer != parse_capture_scope("layer", "x"));
  CHECK_FALSE(parse_capture_scope("layer", "x").pool_per_graph);
  const CaptureScope modules = parse_capture_scope("modules=attn|mlp:pool-each", "x");
  CHECK(modules.modules_regex == "attn|mlp");
  CHECK(modules.pool_per_graph);
  CHECK(modules.to_string() == "modules=attn|mlp:pool-each");
  using graphbench::testing::input_error_of;
  CHECK_THAT(input_error_of([] { parse_capture_scope("full:pool-each", "--sweep scope"); }),
             Catch::Contains("--sweep scope: scope \"full:pool-each\": the full scope captures one graph"));
  CHECK_THAT(input_error_of([] { parse_capture_scope("layers:pool-each", "x"); }),
             Catch::Contains("unknown capture scope \"layers\""));
}

TEST_CASE("capture scope: bad values name where they came from and what is accepted", "[scope]") {
  using graphbench::testing::input_error_of;
  const std::string unknown = input_error_of([] { parse_capture_scope("layers", "s.json: cases[2].scope"); });
  CHECK_THAT(unknown, Catch::Contains("s.json: cases[2].scope: unknown capture scope \"layers\""));
  CHECK_THAT(unknown, Catch::Contains("expected one of full, layer, attention-out, modules=REGEX, auto, fwd-bwd"));
  CHECK_THAT(input_error_of([] { parse_capture_scope("modules=", "--sweep scope"); }),
             Catch::Contains("--sweep scope: scope \"modules=\" names no modules"));
  CHECK_THAT(input_error_of([] { parse_capture_scope("modules=(attn", "x"); }), Catch::Contains("does not compile"));
  CHECK_THROWS_AS(parse_capture_scope("", "x"), InputError);
  CHECK_THROWS_AS(parse_capture_scope("FULL", "x"), InputError);
}

TEST_CASE("capture scope: the grammar that the Python side shares (tests/golden/segments.json)", "[scope]") {
  // tests/python/test_segments.py holds pieces.parse_capture_scope to the same cases.
  std::ifstream in(graphbench::testing::golden_path("segments.json"));
  REQUIRE(in);
  const auto golden = nlohmann::json::parse(in);
  REQUIRE(golden.at("grammar").size() >= 10);
  const std::map<std::string, ScopeKind> kinds{{"full", ScopeKind::kFull},
                                               {"layer", ScopeKind::kLayer},
                                               {"attention-out", ScopeKind::kAttentionOut},
                                               {"modules", ScopeKind::kModules},
                                               {"auto", ScopeKind::kAuto},
                                               {"fwd-bwd", ScopeKind::kForwardBackward}};
  for (const auto& g : golden.at("grammar")) {
    const std::string text = g.at("text").get<std::string>();
    INFO("scope text: \"" << text << "\"");
    if (g.contains("error")) {
      CHECK_THAT(graphbench::testing::input_error_of([&] { parse_capture_scope(text, "golden"); }),
                 Catch::Contains(g.at("error").get<std::string>()));
      continue;
    }
    const CaptureScope scope = parse_capture_scope(text, "golden");
    CHECK(scope.kind == kinds.at(g.at("kind").get<std::string>()));
    CHECK(scope.modules_regex == g.at("regex").get<std::string>());
    CHECK(scope.pool_per_graph == g.at("pool_each").get<bool>());
    CHECK(scope.to_string() == g.at("canonical").get<std::string>());
  }
}
