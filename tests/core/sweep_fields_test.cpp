// Sweeps in suite files and on the command line (src/graphbench/core/suite/sweep_fields): what is read,
// how a swept case becomes one case per value, and each bad input with its message.
#include "support/catch.h"
#include "support/error_of.h"

#include "graphbench/core/suite/published_fields.h"
#include "graphbench/core/suite/suite_parser.h"
#include "graphbench/core/suite/sweep_fields.h"

namespace {

using graphbench::CaseSpec;
using graphbench::ParamDecl;
using graphbench::ParamProblem;
using graphbench::ParamType;
using graphbench::SuiteSpec;
using graphbench::SweepAxis;
using graphbench::SweepSpec;
using graphbench::Variant;
using graphbench::WorkloadDescriptor;
using graphbench::testing::input_error_of;
using nlohmann::json;

const char* const kSweepSuitePath = "configs/sweep.json";

ParamDecl int_param(const std::string& name, std::int64_t value) {
  ParamDecl p;
  p.name = name;
  p.type = ParamType::kPositiveInt;
  p.default_value = value;
  return p;
}

// "steps": batch as a parameter of its own (at most 512, a rule of the workload); "shape": batch
// as the first dimension of "shape"; "plain": no axis at all.
const std::vector<WorkloadDescriptor>& sweep_catalog() {
  static const std::vector<WorkloadDescriptor> workloads = [] {
    WorkloadDescriptor steps;
    steps.name = "steps";
    steps.modes = {"train"};
    steps.kinds = {"benchmark", "training"};
    steps.variants = {Variant::named("eager"), Variant::named("graph")};
    steps.dtypes = {"float32"};
    steps.params = {int_param("batch", 32), int_param("hidden", 64)};
    steps.check = [](const json& params, const std::string&) -> std::optional<ParamProblem> {
      if (params.at("batch").get<std::int64_t>() > 512) return ParamProblem{"/batch", "at most 512 rows"};
      return std::nullopt;
    };
    SweepAxis batch;
    batch.name = "batch";
    batch.fixed_param = "batch";
    batch.apply = [](json& params, std::int64_t value) -> std::optional<ParamProblem> {
      params["batch"] = value;
      return std::nullopt;
    };
    steps.sweep_axes = {batch};

    WorkloadDescriptor plain;
    plain.name = "plain";
    plain.modes = {"inference"};
    plain.kinds = {"benchmark"};
    plain.variants = {Variant::named("eager")};
    plain.dtypes = {"float32"};
    return std::vector<WorkloadDescriptor>{steps, plain};
  }();
  return workloads;
}

SuiteSpec parse(const json& cases) {
  return graphbench::parse_suite_spec(json{{"suite", "s"}, {"cases", cases}}, kSweepSuitePath, sweep_catalog());
}

std::string parse_error(const json& cases) {
  return input_error_of([&] { parse(cases); });
}

SuiteSpec expanded(const json& cases) {
  SuiteSpec suite = parse(cases);
  graphbench::expand_sweeps(suite, sweep_catalog());
  return suite;
}

}  // namespace

TEST_CASE("a swept case becomes one ordinary case per value, in order, named by its point", "[sweep]") {
  const SuiteSpec suite = expanded(json::array(
      {{{"name", "a"}, {"workload", "steps"}, {"sweep", {{"batch", {1, 8, 64}}}}, {"hidden", 128}},
       {{"name", "b"}, {"workload", "steps"}}}));
  REQUIRE(suite.cases.size() == 4);
  const std::vector<std::string> names = {suite.cases[0].name, suite.cases[1].name, suite.cases[2].name,
                                          suite.cases[3].name};
  CHECK(names == std::vector<std::string>{"a[batch=1]", "a[batch=8]", "a[batch=64]", "b"});
  const CaseSpec& point = suite.cases[1];
  CHECK(point.params.at("batch") == 8);
  CHECK(point.params.at("hidden") == 128);  // the case's other parameters are kept
  REQUIRE(point.sweep_point);
  CHECK(point.sweep_point->group == "a");
  CHECK(point.sweep_point->axis == "batch");
  CHECK(point.sweep_point->value == 8);
  CHECK_FALSE(point.sweep);
  CHECK_FALSE(suite.cases[3].sweep_point);
}

TEST_CASE("a sweep's bad lists, axes and conflicts are errors naming the file and the field", "[sweep]") {
  const auto with = [](json sweep) { return json::array({{{"name", "a"}, {"workload", "steps"}, {"sweep", sweep}}}); };
  CHECK(parse_error(with(json{{"batch", json::array()}})) ==
        "configs/sweep.json: /cases/0/sweep/batch: expected a strictly increasing list of positive integers (an empty "
        "list), got []");
  CHECK(parse_error(with(json{{"batch", {4, 2}}})) ==
        "configs/sweep.json: /cases/0/sweep/batch: expected a strictly increasing list of positive integers (2 after "
        "4, not increasing), got [4,2]");
  CHECK(parse_error(with(json{{"batch", {4, 4}}})).find("4 after 4, not increasing") != std::string::npos);
  CHECK(parse_error(with(json{{"batch", {0, 4}}})).find("/cases/0/sweep/batch/0: expected a positive integer") !=
        std::string::npos);
  CHECK(parse_error(with(json{{"batch", 8}})) ==
        "configs/sweep.json: /cases/0/sweep/batch: expected a strictly increasing list of positive integers, got 8");
  CHECK(parse_error(with(json{{"seq", {1, 2}}})) ==
        "configs/sweep.json: /cases/0/sweep: no axis \"seq\" to sweep (the axes of workload steps: batch)");
  CHECK(parse_error(with(json{{"batch", {1}}, {"hidden", {2}}})).find("expected an object of one axis") !=
        std::string::npos);
  CHECK(parse_error(json::array({{{"name", "a"}, {"workload", "plain"}, {"sweep", {{"batch", {1, 2}}}}}})) ==
        "configs/sweep.json: /cases/0/sweep: no axis \"batch\" to sweep (workload plain has no axis to sweep)");
  CHECK(parse_error(json::array({{{"name", "a"}, {"workload", "steps"}, {"batch", 16}, {"sweep", {{"batch", {1, 2}}}}}})) ==
        "configs/sweep.json: /cases/0/sweep: the case sweeps \"batch\" and fixes it with \"batch\" at once: leave one "
        "out");
  CHECK(parse_error(json::array({{{"name", "a"}, {"workload", "steps"}, {"kind", "training"},
                                  {"sweep", {{"batch", {1, 2}}}}}})) ==
        "configs/sweep.json: /cases/0/sweep: a sweep times benchmark steps; this case is a training run (kind "
        "\"training\")");
}

TEST_CASE("a point the workload rejects stops the suite before anything runs, naming the value", "[sweep]") {
  const json cases = json::array({{{"name", "a"}, {"workload", "steps"}, {"sweep", {{"batch", {256, 1024}}}}}});
  CHECK(input_error_of([&] { expanded(cases); }) ==
        "configs/sweep.json: /cases/0/sweep: a at batch=1024: /batch: at most 512 rows");
  const json taken = json::array({{{"name", "a"}, {"workload", "steps"}, {"sweep", {{"batch", {1, 2}}}}},
                                  {{"name", "a[batch=2]"}, {"workload", "steps"}}});
  CHECK(input_error_of([&] { expanded(taken); }) ==
        "configs/sweep.json: /cases/0/sweep: a at batch=2: the point's name a[batch=2] is already a case's name");
}

TEST_CASE("the --sweep option parses AXIS=V1,V2,... and says what is wrong with a bad one", "[sweep]") {
  const SweepSpec sweep = graphbench::parse_sweep_option("batch=1,2,4,256");
  CHECK(sweep.axis == "batch");
  CHECK(sweep.values == std::vector<std::int64_t>{1, 2, 4, 256});
  CHECK(sweep.origin == "--sweep");
  const auto error = [](const std::string& text) {
    return input_error_of([&] { graphbench::parse_sweep_option(text); });
  };
  CHECK(error("batch") ==
        "--sweep \"batch\": expected AXIS=V1,V2,... with a strictly increasing list of positive integers (e.g. "
        "batch=1,2,4,8): no AXIS= before the values");
  CHECK(error("=1,2").find("no AXIS= before the values") != std::string::npos);
  CHECK(error("batch=").find("an empty list") != std::string::npos);
  CHECK(error("batch=1,x").find("\"x\" is not an integer") != std::string::npos);
  CHECK(error("batch=1,2,").find("a comma with no value after it") != std::string::npos);
  CHECK(error("batch=4,2").find("2 after 4, not increasing") != std::string::npos);
  CHECK(error("batch=0,2").find("0 at position 1, not a positive integer") != std::string::npos);
  CHECK(error("batch=1,99999999999999999999").find("is not an integer") != std::string::npos);
}

TEST_CASE("the --sweep option replaces a case's own sweep and fixed value, and refuses cases it cannot sweep", "[sweep]") {
  SuiteSpec suite = parse(json::array({{{"name", "a"}, {"workload", "steps"}, {"batch", 16}},
                                       {{"name", "b"}, {"workload", "steps"}, {"sweep", {{"batch", {1, 2}}}}}}));
  graphbench::apply_sweep_option(suite, graphbench::parse_sweep_option("batch=4,8"), sweep_catalog());
  graphbench::expand_sweeps(suite, sweep_catalog());
  REQUIRE(suite.cases.size() == 4);
  CHECK(suite.cases[0].name == "a[batch=4]");
  CHECK(suite.cases[1].params.at("batch") == 8);
  CHECK(suite.cases[3].name == "b[batch=8]");

  SuiteSpec plain = parse(json::array({{{"name", "p"}, {"workload", "plain"}}}));
  CHECK(input_error_of([&] { graphbench::apply_sweep_option(plain, graphbench::parse_sweep_option("batch=1,2"), sweep_catalog()); }) ==
        "--sweep: case p (configs/sweep.json: /cases/0) has no axis \"batch\" (workload plain has no axis to sweep)");
  SuiteSpec training = parse(json::array({{{"name", "t"}, {"workload", "steps"}, {"kind", "training"}}}));
  CHECK(input_error_of([&] { graphbench::apply_sweep_option(training, graphbench::parse_sweep_option("batch=1,2"), sweep_catalog()); }) ==
        "--sweep: case t (configs/sweep.json: /cases/0) is a training run; a sweep times benchmark steps (leave the "
        "case out with --cases)");
}

TEST_CASE("published figures stay on the point at the case's own parameters, and on runs of their device class", "[sweep]") {
  const json published = {{"variant", "graph"}, {"speedup", 2.0}, {"device", "Tesla K80"}};
  // The case as written runs at the declared batch, 32: the figures describe that point only.
  const SuiteSpec suite =
      expanded(json::array({{{"name", "a"}, {"workload", "steps"}, {"sweep", {{"batch", {16, 32, 128}}}}, {"published", published}}}));
  REQUIRE(suite.cases.size() == 3);
  CHECK(suite.cases[0].published.empty());
  REQUIRE(suite.cases[1].published.size() == 1);
  CHECK(suite.cases[1].published[0].device == "Tesla K80");
  CHECK(suite.cases[2].published.empty());

  graphbench::PublishedFigures gpu;
  gpu.device = "Tesla K80";
  CHECK(graphbench::published_applies(gpu, "cuda"));
  CHECK_FALSE(graphbench::published_applies(gpu, "cpu"));
  graphbench::PublishedFigures cpu;
  cpu.device = "Intel Xeon CPU E5-2690";
  CHECK(graphbench::published_applies(cpu, "cpu"));
  CHECK_FALSE(graphbench::published_applies(cpu, "cuda"));
}
