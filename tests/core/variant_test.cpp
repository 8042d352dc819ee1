// The Variant value type: the method each variant names, the ":replay" forms of graph variants,
// and the declaration helper that adds them.
#include "support/catch.h"

#include "graphbench/core/workload/variant.h"

#include <string>
#include <vector>

namespace {

using graphbench::InputMethod;
using graphbench::Variant;
using graphbench::variant_names;

}  // namespace

TEST_CASE("variants: every variant names the method of its steps") {
  CHECK(std::string(to_string(Variant::named("eager").method())) == "run");
  CHECK(std::string(to_string(Variant::named("jit").method())) == "run");
  CHECK(std::string(to_string(Variant::named("native").method())) == "run");
  CHECK(std::string(to_string(Variant::named("static").method())) == "feed+run");
  // A plain graph variant keeps the meaning it had in earlier result files: feed, then replay.
  for (const char* name : {"graph", "jit+graph", "native+graph", "reference+graph"}) {
    CAPTURE(name);
    CHECK(std::string(to_string(Variant::named(name).method())) == "feed+replay");
    CHECK(Variant::named(name).input_method() == InputMethod::kFed);
  }
  for (const char* name : {"graph:replay", "jit+graph:replay", "native+graph:replay", "reference+graph:replay"}) {
    CAPTURE(name);
    const Variant v = Variant::named(name);
    CHECK(std::string(to_string(v.method())) == "replay");
    CHECK(v.inputs_in_place());
    CHECK(v.needs_cuda_graph());
  }
}

TEST_CASE("variants: a replay form runs the same step as its feeding form") {
  for (const Variant& v : Variant::all()) {
    CAPTURE(v.name());
    const Variant* replay = v.in_place_form();
    if (!v.needs_cuda_graph()) {
      CHECK(replay == nullptr);
      CHECK_FALSE(v.inputs_in_place());
      continue;
    }
    REQUIRE(replay != nullptr);
    CHECK(replay->inputs_in_place());
    CHECK(replay->execution() == v.execution());
    CHECK(replay->source() == v.source());
    CHECK(replay->tolerance() == v.tolerance());
    CHECK(replay->name() == (v.inputs_in_place() ? v.name() : v.name() + ":replay"));
  }
  CHECK(Variant::named("native").is_native());
  CHECK(Variant::named("native+graph:replay").is_native());
  CHECK_FALSE(Variant::named("native").is_eager_baseline());
}

TEST_CASE("variants: with_replay_forms adds each graph variant's replay form once, after it") {
  const std::vector<Variant> declared = {Variant::named("eager"), Variant::named("graph"), Variant::named("static"),
                                         Variant::named("reference+graph")};
  CHECK(variant_names(graphbench::with_replay_forms(declared)) ==
        std::vector<std::string>{"eager", "graph", "graph:replay", "static", "reference+graph",
                                 "reference+graph:replay"});
  // Already listed: not added twice, the given order kept.
  const std::vector<Variant> listed = {Variant::named("graph:replay"), Variant::named("graph")};
  CHECK(variant_names(graphbench::with_replay_forms(listed)) == std::vector<std::string>{"graph:replay", "graph"});
}
