// Workload parameters beyond numbers and strings: lists of objects (each key declared, with
// defaults and optional keys), integer lists of a fixed length, file paths relative to the suite
// file, optional parameters, a workload's own rules between parameters, and the keys it refuses.
#include "support/catch.h"
#include "support/error_of.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/suite/suite_parser.h"

namespace {

using graphbench::InputError;
using graphbench::ParamDecl;
using graphbench::ParamProblem;
using graphbench::ParamType;
using graphbench::WorkloadDescriptor;
using nlohmann::json;

ParamDecl decl(const char* name, ParamType type, json default_value = nullptr) {
  ParamDecl d;
  d.name = name;
  d.type = type;
  d.default_value = std::move(default_value);
  d.help = name;
  return d;
}

// A workload "model": path, items [{size, kind = "a", pair (2 integers in [0, 9], optional)}],
// an optional scale, the rule that a "b" item needs a pair, and a key it refuses (pieces).
WorkloadDescriptor model_workload() {
  WorkloadDescriptor d;
  d.name = "model";
  d.modes = {"inference"};
  d.kinds = {"benchmark"};
  d.variants = {graphbench::Variant::named("eager")};
  d.dtypes = {"float32"};
  ParamDecl kind = decl("kind", ParamType::kString, "a");
  kind.choices = {"a", "b"};
  ParamDecl pair = decl("pair", ParamType::kIntList);
  pair.length = 2;
  pair.max = 9;
  pair.optional = true;
  ParamDecl items = decl("items", ParamType::kObjectList);
  items.fields = {decl("size", ParamType::kPositiveIntList), kind, pair};
  ParamDecl scale = decl("scale", ParamType::kNumber);
  scale.optional = true;
  scale.max = 1.0;
  ParamDecl names = decl("names", ParamType::kStringList);
  names.optional = true;
  d.params = {decl("path", ParamType::kPath), items, scale, names};
  d.refused_params = {{"pieces", "this workload runs a whole model"}};
  d.check = [](const json& params, const std::string&) -> std::optional<ParamProblem> {
    const json& list = params.at("items");
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].at("kind") == "b" && !list[i].contains("pair")) {
        return ParamProblem{"/items/" + std::to_string(i), "a \"b\" item needs a pair"};
      }
    }
    return std::nullopt;
  };
  return d;
}

graphbench::SuiteSpec parse(const std::string& path, const std::string& case_text) {
  const std::string text = R"({"suite": "s", "cases": [{"name": "c", "workload": "model", )" + case_text + "}]}";
  return graphbench::parse_suite_spec(graphbench::parse_suite_json(text, path), path, {model_workload()});
}

// The message of the InputError that parsing a suite of this one case throws.
std::string case_error_of(const std::string& case_text) {
  return graphbench::testing::input_error_of([&] { parse("configs/x.json", case_text); });
}

}  // namespace

TEST_CASE("params: an object list gets its defaults, optional keys stay out, a path is joined to the suite's directory") {
  const auto suite = parse("configs/own/x.json",
                           R"("path": "../models/m.pt", "items": [{"size": [2, 3]}, {"size": [1], "kind": "b", "pair": [0, 9]}])");
  const json& params = suite.cases.at(0).params;
  CHECK(params.at("path") == "configs/models/m.pt");
  CHECK(params.at("items") == json::parse(R"([{"size": [2, 3], "kind": "a"}, {"size": [1], "kind": "b", "pair": [0, 9]}])"));
  CHECK_FALSE(params.contains("scale"));
  CHECK(parse("x.json", R"("path": "m.pt", "items": [{"size": [1]}])").cases.at(0).params.at("path") == "m.pt");
  CHECK(parse("configs/x.json", R"("path": "/abs/./m.pt", "items": [{"size": [1]}], "scale": 0.5)").cases.at(0).params ==
        json::parse(R"({"path": "/abs/m.pt", "items": [{"size": [1], "kind": "a"}], "scale": 0.5})"));
}

TEST_CASE("params: errors in object lists, integer lists, paths and the workload's own rules") {
  const auto items = [](const std::string& list) { return case_error_of(R"("path": "m.pt", "items": )" + list); };
  CHECK(items("{}") == "configs/x.json: /cases/0/items: expected a non-empty list of objects, got {}");
  CHECK(items("[3]") == "configs/x.json: /cases/0/items/0: expected an object, got 3");
  CHECK(items(R"([{"size": [1], "colour": 1}])") ==
        "configs/x.json: /cases/0/items/0/colour: unknown key (expected one of: size, kind, pair)");
  CHECK(items(R"([{"size": [1]}, {"kind": "a"}])") == "configs/x.json: /cases/0/items/1: missing required key \"size\"");
  CHECK(items(R"([{"size": [1], "pair": [1, 2, 3]}])") ==
        "configs/x.json: /cases/0/items/0/pair: expected a list of 2 integers in [0, 9], got [1,2,3]");
  CHECK(items(R"([{"size": [1], "pair": [1, 10]}])") ==
        "configs/x.json: /cases/0/items/0/pair/1: expected an integer in [0, 9], got 10");
  CHECK(items(R"([{"size": [1], "pair": [-1, 2]}])") ==
        "configs/x.json: /cases/0/items/0/pair/0: expected an integer in [0, 9], got -1");
  CHECK(items(R"([{"size": [1]}, {"size": [1], "kind": "b"}])") == "configs/x.json: /cases/0/items/1: a \"b\" item needs a pair");
  CHECK(case_error_of(R"("path": 3, "items": [{"size": [1]}])") == "configs/x.json: /cases/0/path: expected a non-empty string, got 3");
  CHECK(case_error_of(R"("items": [{"size": [1]}])") ==
        "configs/x.json: /cases/0: missing required key \"path\" (a parameter of workload \"model\")");
  CHECK(case_error_of(R"("path": "m.pt", "items": [{"size": [1]}], "scale": 2)") ==
        "configs/x.json: /cases/0/scale: expected a number in [0, 1], got 2");
}

TEST_CASE("params: a key the workload refuses is named with its own message, not as an unknown key") {
  CHECK(case_error_of(R"("path": "m.pt", "items": [{"size": [1]}], "pieces": [])") ==
        "configs/x.json: /cases/0/pieces: this workload runs a whole model");
  CHECK_THAT(case_error_of(R"("path": "m.pt", "items": [{"size": [1]}], "piece_outputs": [])"),
             Catch::StartsWith("configs/x.json: /cases/0/piece_outputs: unknown key (expected one of: "));
}

TEST_CASE("params: a string list is read as given, empty too, and anything but strings in a list is refused") {
  const std::string base = R"("path": "m.pt", "items": [{"size": [1]}], "names": )";
  CHECK(parse("configs/x.json", base + R"(["input0", "piece0.out1"])").cases.at(0).params.at("names") ==
        json::parse(R"(["input0", "piece0.out1"])"));
  CHECK(parse("configs/x.json", base + "[]").cases.at(0).params.at("names") == json::array());
  CHECK(case_error_of(base + R"("input0")") == "configs/x.json: /cases/0/names: expected a list of strings, got \"input0\"");
  CHECK(case_error_of(base + R"(["input0", 3])") == "configs/x.json: /cases/0/names/1: expected a string, got 3");
}
