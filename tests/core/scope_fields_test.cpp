// Capture scopes in suite files and on the command line (src/graphbench/core/suite/scope_fields): a
// case's "scope", a sweep over scopes (alone and beside batch), --sweep scope=..., and every bad
// value with its message.
#include "support/catch.h"
#include "support/error_of.h"

#include "graphbench/core/suite/scope_fields.h"
#include "graphbench/core/suite/suite_parser.h"
#include "graphbench/core/suite/sweep_fields.h"

namespace {

using graphbench::CaseSpec;
using graphbench::ParamDecl;
using graphbench::ParamType;
using graphbench::ScopeKind;
using graphbench::SuiteSpec;
using graphbench::SweepAxis;
using graphbench::Variant;
using graphbench::WorkloadDescriptor;
using graphbench::testing::input_error_of;
using nlohmann::json;

const char* const kScopePath = "configs/scopes.json";

// "steps": batch as an axis; benchmark and training kinds.
const std::vector<WorkloadDescriptor>& scope_catalog() {
  static const std::vector<WorkloadDescriptor> workloads = [] {
    WorkloadDescriptor steps;
    steps.name = "steps";
    steps.modes = {"train"};
    steps.kinds = {"benchmark", "training"};
    steps.variants = {Variant::named("eager"), Variant::named("graph")};
    steps.dtypes = {"float32"};
    ParamDecl batch;
    batch.name = "batch";
    batch.type = ParamType::kPositiveInt;
    batch.default_value = 32;
    steps.params = {batch};
    SweepAxis axis;
    axis.name = "batch";
    axis.fixed_param = "batch";
    axis.apply = [](json& params, std::int64_t value) -> std::optional<graphbench::ParamProblem> {
      params["batch"] = value;
      return std::nullopt;
    };
    steps.sweep_axes = {axis};
    return std::vector<WorkloadDescriptor>{steps};
  }();
  return workloads;
}

SuiteSpec parse_scoped(const json& cases) {
  return graphbench::parse_suite_spec(json{{"suite", "s"}, {"cases", cases}}, kScopePath, scope_catalog());
}

std::string scoped_error(const json& cases) {
  return input_error_of([&] { parse_scoped(cases); });
}

SuiteSpec expanded_scoped(SuiteSpec suite) {
  graphbench::expand_scope_sweeps(suite);
  graphbench::expand_sweeps(suite, scope_catalog());
  return suite;
}

std::vector<std::string> case_names(const SuiteSpec& suite) {
  std::vector<std::string> names;
  for (const CaseSpec& c : suite.cases) names.push_back(c.name);
  return names;
}

json one_case(json extra) {
  json c = {{"name", "a"}, {"workload", "steps"}};
  for (auto& item : extra.items()) c[item.key()] = item.value();
  return json::array({c});
}

}  // namespace

TEST_CASE("a case's scope is read as a capture scope, full when absent", "[scope]") {
  const SuiteSpec plain = parse_scoped(one_case(json::object()));
  CHECK(plain.cases[0].scope.is_full());
  const SuiteSpec layer = parse_scoped(one_case({{"scope", "layer"}}));
  CHECK(layer.cases[0].scope.kind == ScopeKind::kLayer);
  const SuiteSpec modules = parse_scoped(one_case({{"scope", "modules=attn|mlp"}}));
  CHECK(modules.cases[0].scope.kind == ScopeKind::kModules);
  CHECK(modules.cases[0].scope.modules_regex == "attn|mlp");
  // A case with a fixed scope and no sweep stays one case, under its own name.
  const SuiteSpec kept = expanded_scoped(layer);
  CHECK(case_names(kept) == std::vector<std::string>{"a"});
  CHECK(kept.cases[0].scope.kind == ScopeKind::kLayer);
}

TEST_CASE("a scope in defaults is every benchmark case's that neither sets nor sweeps its own", "[scope]") {
  const json cases = json::array({{{"name", "a"}, {"workload", "steps"}},
                                  {{"name", "b"}, {"workload", "steps"}, {"scope", "auto"}},
                                  {{"name", "c"}, {"workload", "steps"}, {"sweep", {{"scope", {"full", "layer"}}}}},
                                  {{"name", "t"}, {"workload", "steps"}, {"kind", "training"}}});
  const SuiteSpec suite = graphbench::parse_suite_spec(
      json{{"suite", "s"}, {"defaults", {{"scope", "attention-out"}}}, {"cases", cases}}, kScopePath, scope_catalog());
  CHECK(suite.cases[0].scope.kind == ScopeKind::kAttentionOut);
  CHECK(suite.cases[1].scope.kind == ScopeKind::kAuto);
  CHECK(suite.cases[2].scope.is_full());  // its sweep decides
  CHECK(suite.cases[3].scope.is_full());  // a training run has no scope
  CHECK(input_error_of([&] {
          graphbench::parse_suite_spec(json{{"suite", "s"}, {"defaults", {{"scope", "piecewise"}}}, {"cases", cases}},
                                       kScopePath, scope_catalog());
        }) == "configs/scopes.json: /defaults/scope: unknown capture scope \"piecewise\": expected one of full, layer, "
              "attention-out, modules=REGEX, auto, fwd-bwd (a segmented scope may end in :pool-each)");
}

TEST_CASE("a case's bad scope is an error naming the file, the field and the accepted scopes", "[scope]") {
  CHECK(scoped_error(one_case({{"scope", "layers"}})) ==
        "configs/scopes.json: /cases/0/scope: unknown capture scope \"layers\": expected one of full, layer, "
        "attention-out, modules=REGEX, auto, fwd-bwd (a segmented scope may end in :pool-each)");
  CHECK(scoped_error(one_case({{"scope", 3}})) ==
        "configs/scopes.json: /cases/0/scope: expected a capture scope (one of full, layer, attention-out, "
        "modules=REGEX, auto, fwd-bwd), got 3");
  CHECK(scoped_error(one_case({{"scope", "modules="}})) ==
        "configs/scopes.json: /cases/0/scope: scope \"modules=\" names no modules: expected modules=REGEX, e.g. "
        "modules=self_attn|mlp");
  CHECK(scoped_error(one_case({{"scope", "modules=(attn"}}))
            .rfind("configs/scopes.json: /cases/0/scope: scope \"modules=(attn\": the modules regex does not compile: ",
                   0) == 0);
  CHECK(scoped_error(one_case({{"scope", ""}})).find("/cases/0/scope: unknown capture scope \"\"") != std::string::npos);
  CHECK(scoped_error(one_case({{"scope", "layer"}, {"kind", "training"}})) ==
        "configs/scopes.json: /cases/0/scope: a capture scope shapes the graphs of benchmark steps; this case is a "
        "training run (kind \"training\")");
}

TEST_CASE("a sweep over scopes becomes one case per scope, named NAME[scope=SCOPE], beside a batch sweep too", "[scope]") {
  const SuiteSpec alone = expanded_scoped(parse_scoped(one_case({{"sweep", {{"scope", {"full", "layer", "attention-out"}}}}})));
  CHECK(case_names(alone) == std::vector<std::string>{"a[scope=full]", "a[scope=layer]", "a[scope=attention-out]"});
  CHECK(alone.cases[1].scope.kind == ScopeKind::kLayer);
  CHECK(alone.cases[1].scope_group == "a");  // the records carry it (the verdicts group by it)
  CHECK_FALSE(alone.cases[1].sweep_point);  // a scope is no point of an integer sweep

  const SuiteSpec both =
      expanded_scoped(parse_scoped(one_case({{"sweep", {{"batch", {1, 8}}, {"scope", {"full", "layer"}}}}})));
  CHECK(case_names(both) == std::vector<std::string>{"a[scope=full][batch=1]", "a[scope=full][batch=8]",
                                                     "a[scope=layer][batch=1]", "a[scope=layer][batch=8]"});
  // Each scope's batch sweep is a sweep of its own (the Sweeps verdict per scope).
  REQUIRE(both.cases[3].sweep_point);
  CHECK(both.cases[3].sweep_point->group == "a[scope=layer]");
  CHECK(both.cases[3].sweep_point->value == 8);
  CHECK(both.cases[3].scope_group == "a[batch=8]");  // scopes compared at each batch
  CHECK(both.cases[3].params.at("batch") == 8);
  CHECK(both.cases[3].scope.kind == ScopeKind::kLayer);
}

TEST_CASE("a sweep's bad scope lists are errors naming the file and the field", "[scope]") {
  const auto with = [](json sweep) { return one_case({{"sweep", sweep}}); };
  CHECK(scoped_error(with({{"scope", json::array()}})) ==
        "configs/scopes.json: /cases/0/sweep/scope: expected a non-empty list of distinct capture scopes, e.g. "
        "[\"full\", \"layer\"], got []");
  CHECK(scoped_error(with({{"scope", "layer"}})) ==
        "configs/scopes.json: /cases/0/sweep/scope: expected a non-empty list of distinct capture scopes, e.g. "
        "[\"full\", \"layer\"], got \"layer\"");
  CHECK(scoped_error(with({{"scope", {"full", "bogus"}}})) ==
        "configs/scopes.json: /cases/0/sweep/scope/1: unknown capture scope \"bogus\": expected one of full, layer, "
        "attention-out, modules=REGEX, auto, fwd-bwd (a segmented scope may end in :pool-each)");
  CHECK(scoped_error(with({{"scope", {"full", 2}}})) ==
        "configs/scopes.json: /cases/0/sweep/scope/1: expected a capture scope (one of full, layer, attention-out, "
        "modules=REGEX, auto, fwd-bwd), got 2");
  CHECK(scoped_error(with({{"scope", {"layer", "full", "layer"}}})) ==
        "configs/scopes.json: /cases/0/sweep/scope/2: scope \"layer\" is in the list twice");
  CHECK(scoped_error(with({{"scope", {"modules=(x"}}})).find("/cases/0/sweep/scope/0: scope \"modules=(x\": the modules "
                                                              "regex does not compile") != std::string::npos);
  CHECK(scoped_error(one_case({{"scope", "layer"}, {"sweep", {{"scope", {"full", "layer"}}}}})) ==
        "configs/scopes.json: /cases/0/sweep: the case sweeps \"scope\" and fixes it with \"scope\" at once: leave one "
        "out");
  CHECK(scoped_error(one_case({{"kind", "training"}, {"sweep", {{"scope", {"full"}}}}})) ==
        "configs/scopes.json: /cases/0/sweep: a sweep times benchmark steps; this case is a training run (kind "
        "\"training\")");
  CHECK(scoped_error(with({{"batch", {1}}, {"pos", {2}}, {"scope", {"full"}}})).find("expected an object of one axis") !=
        std::string::npos);
}

TEST_CASE("a scope point whose name is taken stops the suite, naming the case", "[scope]") {
  const SuiteSpec suite = parse_scoped(json::array({{{"name", "a"}, {"workload", "steps"}, {"sweep", {{"scope", {"full", "layer"}}}}},
                                                    {{"name", "a[scope=layer]"}, {"workload", "steps"}}}));
  CHECK(input_error_of([&] { expanded_scoped(suite); }) ==
        "configs/scopes.json: /cases/0/sweep/scope: a at scope=layer: the point's name a[scope=layer] is already a "
        "case's name");
}

TEST_CASE("the --sweep option sweeps every case over scopes, beside batch", "[scope]") {
  SuiteSpec suite = parse_scoped(json::array({{{"name", "a"}, {"workload", "steps"}, {"scope", "auto"}},
                                              {{"name", "b"}, {"workload", "steps"}}}));
  graphbench::apply_sweep_options(suite, {"scope=full,modules=attn|mlp", "batch=2,4"}, scope_catalog());
  const SuiteSpec out = expanded_scoped(suite);
  CHECK(case_names(out) == std::vector<std::string>{"a[scope=full][batch=2]", "a[scope=full][batch=4]",
                                                    "a[scope=modules=attn|mlp][batch=2]", "a[scope=modules=attn|mlp][batch=4]",
                                                    "b[scope=full][batch=2]", "b[scope=full][batch=4]",
                                                    "b[scope=modules=attn|mlp][batch=2]", "b[scope=modules=attn|mlp][batch=4]"});
  CHECK(out.cases[2].scope.modules_regex == "attn|mlp");
}

TEST_CASE("the --sweep option of scopes says what is wrong with a bad value", "[scope]") {
  const auto error = [](std::vector<std::string> texts) {
    SuiteSpec suite = parse_scoped(json::array({{{"name", "a"}, {"workload", "steps"}}}));
    return input_error_of([&] { graphbench::apply_sweep_options(suite, texts, scope_catalog()); });
  };
  const std::string expected = "expected scope=S1,S2,... with distinct capture scopes (e.g. scope=full,layer,attention-out; "
                               "the scopes: full, layer, attention-out, modules=REGEX, auto, fwd-bwd): ";
  CHECK(error({"scope="}) == "--sweep \"scope=\": " + expected + "an empty list");
  CHECK(error({"scope=full,"}) == "--sweep \"scope=full,\": " + expected + "a comma with no scope after it");
  CHECK(error({"scope=full,,layer"}) == "--sweep \"scope=full,,layer\": " + expected + "an empty scope between two commas");
  CHECK(error({"scope=layer,layer"}) == "--sweep \"scope=layer,layer\": " + expected + "\"layer\" twice");
  CHECK(error({"scope=full,bogus"}) ==
        "--sweep \"scope=full,bogus\": unknown capture scope \"bogus\": expected one of full, layer, attention-out, "
        "modules=REGEX, auto, fwd-bwd (a segmented scope may end in :pool-each)");
  CHECK(error({"scope=modules=(x"}).find("--sweep \"scope=modules=(x\": scope \"modules=(x\": the modules regex does not "
                                         "compile") == 0);
  CHECK(error({"scope=full", "scope=layer"}) == "--sweep \"scope=layer\": the scopes are already swept by another --sweep");
  CHECK(error({"batch=1,2", "batch=4"}) ==
        "--sweep \"batch=4\": --sweep batch=... is given already: one integer axis at a time, beside scope=...");

  SuiteSpec training = parse_scoped(json::array({{{"name", "t"}, {"workload", "steps"}, {"kind", "training"}}}));
  CHECK(input_error_of([&] { graphbench::apply_sweep_options(training, {"scope=full,layer"}, scope_catalog()); }) ==
        "--sweep: case t (configs/scopes.json: /cases/0) is a training run; a capture scope shapes the graphs of "
        "benchmark steps (leave the case out with --cases)");
}
